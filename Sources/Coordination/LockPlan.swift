/// The name of the lock file of one path: 32 hex digits of the 128-bit FNV-1a hash of the
/// canonical path bytes, plus `.lock`. Any bytes hash (newlines, invalid UTF-8, 4 KiB paths)
/// and the name stays short and safe. A collision only makes two paths share a lock file:
/// more exclusion than needed, never less, and never a deadlock (see `LockPlan`).
struct LockName: Hashable, Comparable, Sendable, CustomStringConvertible {
    let hash: UInt128

    static let offsetBasis: UInt128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d
    static let prime: UInt128 = 0x0000_0000_0100_0000_0000_0000_0000_013b

    init(hash: UInt128) { self.hash = hash }

    init(path: ItemPath) {
        self = LockName.names(forPathAndAncestors: path).last!
    }

    static func < (lhs: LockName, rhs: LockName) -> Bool { lhs.hash < rhs.hash }

    var description: String { String(decoding: fileName.dropLast(), as: UTF8.self) }

    /// `description` as a NUL-terminated file name, built without formatting machinery
    /// (this is on the path of every claim).
    var fileName: [UInt8] {
        let digits: StaticString = "0123456789abcdef"
        var name = [UInt8](repeating: 0, count: 32 + 6)
        digits.withUTF8Buffer { digits in
            for index in 0..<32 {
                name[index] = digits[Int(truncatingIfNeeded: hash >> UInt128(4 * (31 - index))) & 0xf]
            }
        }
        for (offset, byte) in ".lock".utf8.enumerated() { name[32 + offset] = byte }
        return name
    }

    /// The names of `/`, of every ancestor folder of `path` and of `path` itself, from the
    /// root down: one pass, since each ancestor's bytes are a prefix of the path's.
    static func names(forPathAndAncestors path: ItemPath) -> [LockName] {
        var names: [LockName] = []
        var state = offsetBasis
        for (index, byte) in path.bytes.enumerated() {
            if byte == UInt8(ascii: "/"), index > 0 { names.append(LockName(hash: state)) }
            state = (state ^ UInt128(byte)) &* prime
            if index == 0 && path.bytes.count > 1 { names.append(LockName(hash: state)) }
        }
        names.append(LockName(hash: state))
        return names
    }
}

/// One lock to take: shared or exclusive on one lock file, for the claim on `item`.
struct LockRequest: Sendable {
    let name: LockName
    var exclusive: Bool
    /// The claimed item this lock serves (the item itself or a descendant), for holder records.
    var item: ItemPath
    var itemAccess: ClaimHolder.Access
    /// Whether this is an item's own lock (not only an intent lock for something below):
    /// such a shared lock gives way to a writer already waiting for the lock file.
    var isItemLock: Bool
    /// Whether a missing lock file is created (else the lock is skipped: nobody holds it).
    var createsFile = true
}

/// Every lock a coordinated access needs, merged and in the one global order.
///
/// Each item gets a lock on its own lock file (shared to read, exclusive to write) and a
/// shared "intent" lock on the lock file of every ancestor. A write on a folder therefore
/// conflicts with every intent lock taken below it, and an access below waits for it.
/// Requests on the same lock file (two items, an ancestor, a hash collision) are merged into
/// the strongest; all processes take locks in ascending hash order and hold them while they
/// wait for the next, so no cycle of waiters, hence no deadlock, can form.
struct LockPlan: Sendable {
    private(set) var requests: [LockRequest] = []

    init(items: [(path: ItemPath, access: ItemAccess)]) {
        var byName: [LockName: LockRequest] = [:]
        for (path, access) in items {
            let names = LockName.names(forPathAndAncestors: path)
            let holderAccess: ClaimHolder.Access = access.exclusive ? .writing : .reading
            for (index, name) in names.enumerated() {
                let isItemLock = index == names.count - 1
                let request = LockRequest(
                    name: name, exclusive: access.exclusive && isItemLock, item: path, itemAccess: holderAccess,
                    isItemLock: isItemLock, createsFile: access.createsLockFiles)
                byName[name] = LockPlan.merge(byName[name], request)
            }
        }
        requests = byName.values.sorted { $0.name < $1.name }
    }

    private static func merge(_ existing: LockRequest?, _ new: LockRequest) -> LockRequest {
        guard var existing else { return new }
        existing.isItemLock = existing.isItemLock || new.isItemLock
        existing.createsFile = existing.createsFile || new.createsFile
        var new = new
        new.isItemLock = existing.isItemLock
        new.createsFile = existing.createsFile
        if new.exclusive && !existing.exclusive { return new }
        if new.itemAccess == .writing && existing.itemAccess == .reading && !existing.exclusive {
            return new
        }
        return existing
    }

    func index(of name: LockName) -> Int? {
        requests.firstIndex { $0.name == name }
    }
}
