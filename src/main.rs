fn main() {
    // `calvin datagen ...` writes training data; anything else is the engine.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("datagen") {
        std::process::exit(calvin::datagen::cli::main(&args[1..]));
    }
    calvin::protocol::run();
}
