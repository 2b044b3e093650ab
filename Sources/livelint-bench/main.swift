print("livelint-bench: not built yet")
