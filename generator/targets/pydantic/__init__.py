"""The pydantic target: pydantic v2 models of each format (generated/pydantic/chatformats_pydantic/)."""
