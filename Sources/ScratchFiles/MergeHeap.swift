/// The binary min-heap an external sort merges its runs with (``SortedRuns``, ``SortedRecords``):
/// a few dozen lines, where swift-collections' `Heap` would be a package whose build settings
/// (experimental features, availability macros, a package name) `scripts/fuzz.sh`, which compiles
/// the walk's module with `swiftc` directly, would have to copy.
@usableFromInline struct MergeHeap<Item: Comparable> {
    @usableFromInline var items: [Item]

    @inlinable init(_ items: [Item]) {
        self.items = items.sorted()  // a sorted array is a heap
    }

    @inlinable var min: Item? { items.first }

    @inlinable mutating func removeMin() {
        items.swapAt(0, items.count - 1)
        items.removeLast()
        siftDown()
    }

    @inlinable mutating func replaceMin(with item: Item) {
        items[0] = item
        siftDown()
    }

    @inlinable mutating func siftDown() {
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var least = i
            if l < items.count, items[l] < items[least] { least = l }
            if r < items.count, items[r] < items[least] { least = r }
            guard least != i else { return }
            items.swapAt(i, least)
            i = least
        }
    }
}
