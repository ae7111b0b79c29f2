"""The Python target: a stdlib-only package of dataclasses with validators (generated/python/<package>/)."""
