"""chatspec: compiles canonical chat-format specs to Python, Go, docs and JSON Schema."""
