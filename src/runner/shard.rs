//! `--shard I/N`: the part of a run's work that shard I of N plays. Work
//! item `k` (a datagen game, a match's opening pair; 0-based) belongs to
//! shard `k mod N + 1`, so the N shards together play every item once.

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Reads `I/N` with `1 <= I <= N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard wants I/N with 1 <= I <= N (whole numbers), not '{s}'");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<u32>().map_err(|_| bad())?, n.trim().parse::<u32>().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
    /// Whether work item `k` (0-based) is this shard's.
    pub fn contains(&self, k: u64) -> bool {
        k % u64::from(self.count) + 1 == u64::from(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_shares_out() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard::parse("1/1").map(|s| s.to_string()), Ok("1/1".to_string()));
        for bad in ["0/3", "4/3", "x/y", "3", "1/0", "-1/3", ""] {
            assert!(Shard::parse(bad).unwrap_err().contains(&format!("not '{bad}'")), "{bad}");
        }
        let s = Shard::parse("2/3").unwrap();
        let mine: Vec<u64> = (0..8).filter(|&k| s.contains(k)).collect();
        assert_eq!(mine, [1, 4, 7]);
    }
}
