fn main() {
    calvin::protocol::run();
}
