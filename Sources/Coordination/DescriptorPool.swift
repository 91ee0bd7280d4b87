import Synchronization

/// Open lock files that no claim uses now, kept for the next claim of the same path:
/// opening and closing dominate an uncontended claim otherwise. A pooled descriptor holds
/// no lock (it is unlocked before it is returned), and each descriptor serves one claim at a
/// time, so claims in one process still exclude each other. Bounded; the rest is closed.
final class DescriptorPool: Sendable {
    let capacity: Int
    private let idle = Mutex<(byName: [LockName: [Int32]], count: Int)>(([:], 0))

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    deinit {
        idle.withLock { state in
            for descriptors in state.byName.values { descriptors.forEach(Sys.close) }
        }
    }

    /// An idle descriptor of the lock file `name`, if any.
    func take(_ name: LockName) -> Int32? {
        idle.withLock { state in
            guard let descriptor = state.byName[name]?.popLast() else { return nil }
            if state.byName[name]?.isEmpty == true { state.byName[name] = nil }
            state.count -= 1
            return descriptor
        }
    }

    /// Keeps an unlocked descriptor for later, or closes it when the pool is full.
    func give(_ descriptor: Int32, for name: LockName) {
        let kept = idle.withLock { state in
            guard state.count < capacity else { return false }
            state.byName[name, default: []].append(descriptor)
            state.count += 1
            return true
        }
        if !kept { Sys.close(descriptor) }
    }
}
