"""The msgspec target: each format's models as msgspec Structs, read with the dataclass package's verdicts."""
