import UbqCLI

/// `ubq`: thin; every command lives in UbqCLI.
@main
enum UbqMain {
    static func main() async {
        await UbqCommand.main()
    }
}
