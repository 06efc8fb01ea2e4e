"""One module per chat platform, translating updates to neutral commands and back."""
