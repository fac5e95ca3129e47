//! Match statistics: the Elo difference from a win/draw/loss count with its
//! 95% error bar and likelihood of superiority (as cutechess computes them),
//! and the SPRT (a GSPRT on the logistic Elo model, as fishtest and fastchess
//! compute it for trinomial results; see [`Sprt::llr`] for small samples).

/// Quantile of the normal distribution at 0.975 (two-sided 95%).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference for an expected score `s` (0 < s < 1).
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// Points per game (0..1); `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }
    /// Variance of one game's result (0, 1/2 or 1) around the mean score.
    fn variance(&self) -> Option<f64> {
        let n = self.games() as f64;
        let s = self.score()?;
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n)
    }
    /// Likelihood of superiority: the chance the first engine is stronger.
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return None;
        }
        Some(0.5 + 0.5 * erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }
    /// Elo difference and the half-width of its 95% interval. The interval
    /// is infinite when every game was won or lost.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        let s = self.score()?;
        let elo = elo_from_score(s);
        let dev = (self.variance()? / n).sqrt() * Z95;
        let (lo, hi) = (s - dev, s + dev);
        let err = if lo <= 0.0 || hi >= 1.0 { f64::INFINITY } else { (elo_from_score(hi) - elo_from_score(lo)) / 2.0 };
        Some((elo, err))
    }
}

/// SPRT settings: H0 = `elo0`, H1 = `elo1` (logistic Elo), error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    H0,
    H1,
}

impl Default for Sprt {
    fn default() -> Self {
        Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 }
    }
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any subset; the rest default).
    pub fn parse(args: &[String]) -> Result<Sprt, String> {
        let mut s = Sprt::default();
        for a in args {
            let (k, v) = a.split_once('=').ok_or_else(|| format!("--sprt: expected key=value, got '{a}'"))?;
            let x: f64 = v.parse().map_err(|_| format!("--sprt: bad number '{v}' for {k}"))?;
            match k {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                "beta" => s.beta = x,
                _ => return Err(format!("--sprt: unknown key '{k}'")),
            }
        }
        if !(0.0 < s.alpha && s.alpha < 1.0 && 0.0 < s.beta && s.beta < 1.0) {
            return Err("--sprt: alpha and beta must be between 0 and 1".into());
        }
        if s.elo0 >= s.elo1 {
            return Err("--sprt: elo0 must be below elo1".into());
        }
        Ok(s)
    }
    /// (lower, upper): accept H0 at or below the lower bound, H1 at or above the upper.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }
    /// The log-likelihood ratio of H1 against H0 after `r` (the GSPRT
    /// approximation `(s1 - s0)(2m - s0 - s1) / (2 var / n)`). Until there
    /// is both a win and a loss the variance would be zero or close to it,
    /// so the empty counts are then taken as half a game each: one lost game
    /// gives an LLR near zero, and a long one-sided run still decides.
    pub fn llr(&self, r: &Wdl) -> f64 {
        if r.games() == 0 {
            return 0.0;
        }
        let one_sided = r.wins == 0 || r.losses == 0;
        let reg = |x: u64| {
            if one_sided && x == 0 { 0.5 } else { x as f64 }
        };
        let (w, d, l) = (reg(r.wins), reg(r.draws), reg(r.losses));
        let n = w + d + l;
        let m = (w + 0.5 * d) / n;
        let var = (w * (1.0 - m).powi(2) + d * (0.5 - m).powi(2) + l * m.powi(2)) / n;
        let var_mean = var / n;
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var_mean)
    }
    pub fn verdict(&self, llr: f64) -> Option<SprtVerdict> {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Some(SprtVerdict::H1)
        } else if llr <= lo {
            Some(SprtVerdict::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} is not {b} (+/- {eps})");
    }

    #[test]
    fn elo_of_known_scores() {
        close(elo_from_score(0.6), 70.437, 0.001);
        close(elo_from_score(0.5), 0.0, 1e-12);
        close(elo_from_score(0.75), 190.849, 0.001);
        close(elo_from_score(0.25), -190.849, 0.001);
        close(score_from_elo(elo_from_score(0.37)), 0.37, 1e-12);
    }

    #[test]
    fn elo_with_error_bar() {
        // 60% over 100 games, three ways.
        let r = Wdl { wins: 60, draws: 0, losses: 40 };
        let (elo, err) = r.elo().unwrap();
        close(elo, 70.437, 0.001);
        close(err, 70.571, 0.01);
        let r = Wdl { wins: 40, draws: 40, losses: 20 };
        let (elo, err) = r.elo().unwrap();
        close(elo, 70.437, 0.001);
        close(err, 53.553, 0.01);
        let r = Wdl { wins: 20, draws: 80, losses: 0 };
        let (elo, err) = r.elo().unwrap();
        close(elo, 70.437, 0.001);
        close(err, 28.444, 0.01);
        // All wins: no finite error bar.
        let r = Wdl { wins: 5, draws: 0, losses: 0 };
        assert!(r.elo().unwrap().0.is_infinite());
        assert_eq!(Wdl::default().elo(), None);
    }

    #[test]
    fn likelihood_of_superiority() {
        let r = Wdl { wins: 60, draws: 0, losses: 40 };
        // 0.5 + 0.5 erf(20 / sqrt(200)) = Phi(2)
        close(r.los().unwrap(), 0.977_250, 1e-5);
        let even = Wdl { wins: 10, draws: 3, losses: 10 };
        close(even.los().unwrap(), 0.5, 1e-9);
        close(erf(1.0), 0.842_700_79, 2e-7);
        close(erf(-0.5), -0.520_499_88, 2e-7);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let s = Sprt::default();
        let (lo, hi) = s.bounds();
        close(lo, -2.944_439, 1e-6);
        close(hi, 2.944_439, 1e-6);
        let s2 = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.1 };
        let (lo, hi) = s2.bounds();
        close(lo, -2.251_292, 1e-6);
        close(hi, 2.890_372, 1e-6);
        // Values from the same formula computed independently (Python).
        let r = Wdl { wins: 60, draws: 0, losses: 40 };
        close(s.llr(&r), 0.289_012, 1e-5);
        let r = Wdl { wins: 400, draws: 300, losses: 300 };
        close(s.llr(&r), 1.935_475, 1e-5);
        assert_eq!(s.verdict(s.llr(&r)), None);
        let r = Wdl { wins: 450, draws: 300, losses: 250 };
        close(s.llr(&r), 4.203_779, 1e-5);
        assert_eq!(s.verdict(s.llr(&r)), Some(SprtVerdict::H1));
        let r = Wdl { wins: 280, draws: 300, losses: 420 };
        close(s.llr(&r), -3.113_112, 1e-5);
        assert_eq!(s.verdict(s.llr(&r)), Some(SprtVerdict::H0));
        assert_eq!(s.llr(&Wdl::default()), 0.0);
        // One-sided starts: nothing decided after a game or a few, but a
        // long run of wins or losses decides.
        let r = |wins, draws, losses| Wdl { wins, draws, losses };
        close(s.llr(&r(0, 0, 1)), -0.010_767, 1e-5);
        close(s.llr(&r(0, 0, 10)), -0.660_566, 1e-5);
        close(s.llr(&r(20, 0, 0)), 2.443_569, 1e-5);
        assert_eq!(s.verdict(s.llr(&r(20, 0, 0))), None);
        assert_eq!(s.verdict(s.llr(&r(40, 0, 0))), Some(SprtVerdict::H1));
        assert!(s.llr(&r(0, 5, 0)).abs() < 0.1);
    }

    #[test]
    fn sprt_arguments() {
        let a: Vec<String> = ["elo0=-1", "elo1=4", "alpha=0.1", "beta=0.2"].iter().map(|s| s.to_string()).collect();
        let s = Sprt::parse(&a).unwrap();
        assert_eq!(s, Sprt { elo0: -1.0, elo1: 4.0, alpha: 0.1, beta: 0.2 });
        assert!(Sprt::parse(&["elo0=5".to_string()]).is_err());
        assert!(Sprt::parse(&["gamma=5".to_string()]).is_err());
        assert!(Sprt::parse(&["alpha=1.5".to_string()]).is_err());
    }
}
