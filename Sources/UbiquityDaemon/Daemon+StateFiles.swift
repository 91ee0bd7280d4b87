import SQLiteDirect

extension Daemon {
    /// Opens the state database at `path` with `open`. One that SQLite cannot read as a
    /// database (`DamagedDatabase`: a disk fault, a file written over) is set aside, kept
    /// for a post-mortem, and made anew, saying so in the log with what follows from it
    /// (`consequence`): a daemon that refused to start for it would stop indexing and
    /// syncing until someone read the journal, and under systemd it would be restarted
    /// into the same failure.
    func openState<Database>(_ path: String, what: String, consequence: String, _ open: (String) throws -> Database) throws -> Database {
        do {
            return try open(path)
        } catch where DamagedDatabase.isDamage(error) {
            let aside = try DamagedDatabase.setAside(path)
            logger.error("\(what) \(path) is damaged (\(error)): it is kept as \(aside), and a new one is made; \(consequence)")
            return try open(path)
        }
    }
}
