/// An immutable box: copies of the value holding it share one reference, and a change replaces
/// the box. It keeps large, rarely set or shared parts out of line, so the values that hold them
/// (``MediaFile``'s still and movie, ``StillInfo/motionPhoto``, a pair record's HTML media) stay
/// small: one pointer, nil when absent (issue 13, a library's records held in memory).
public final class Boxed<Value: Sendable>: Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}

/// Compared by value, so a value holding a box keeps the equality it had inline.
extension Boxed: Equatable where Value: Equatable {
    public static func == (a: Boxed, b: Boxed) -> Bool { a.value == b.value }
}

extension Boxed: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
