"""The Python target: a stdlib-only package of dataclasses with validators (generated/python/<package>/).

target.py    the contract (name, vendoring, naming policy); light to import, the CLI reads it
module.py    one format's module: builds its views, renders templates/python/module.py.j2, black
views.py     the data-only views the templates render
literals.py  how values are spelt (the templates' filters)
types.py     IR type -> annotation, with the imports it needs
parsers.py   IR type -> runtime combinator view; a field's default; a rule's check
encoders.py  how to_dict writes a field
Templates: one per construct under templates/python/ (module, model, parse_function, enum,
alias, api, init) and macro files for the recursive parts (parsers, rules, fields).
"""
