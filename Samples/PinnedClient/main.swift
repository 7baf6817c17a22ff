print("PinnedClient")
