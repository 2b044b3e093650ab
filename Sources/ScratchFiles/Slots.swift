/// One slot a thread: what several threads make at once (`DispatchQueue.concurrentPerform`), each
/// writing only the slots it was given and none reading meanwhile, then taken in order on the
/// calling thread (the engine's blocks of checked pairs, the JSON report's shares).
package final class Slots<Value>: @unchecked Sendable {
    private let values: UnsafeMutableBufferPointer<Value?>

    package init(count: Int) {
        values = .allocate(capacity: count)
        values.initialize(repeating: nil)
    }

    deinit {
        _ = values.deinitialize()
        values.deallocate()
    }

    package func put(_ value: Value, at i: Int) { values[i] = value }

    /// The value put at `i`, the slot emptied.
    package func take(_ i: Int) -> Value {
        defer { values[i] = nil }
        return values[i]!
    }

    /// `body` on slot `i` in place (a value kept there from one round to the next keeps its room).
    package func withSlot<R>(_ i: Int, _ body: (inout Value?) -> R) -> R { body(&values[i]) }
}
