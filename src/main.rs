fn main() {
    // `calvin datagen ...` writes training data; `calvin CMD ARGS...` runs one
    // command (`calvin bench`) and ends; no arguments: the engine on stdin.
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("datagen") => std::process::exit(calvin::datagen::cli::main(&args[1..])),
        Some(_) => calvin::protocol::run_command(&args.join(" ")),
        None => calvin::protocol::run(),
    }
}
