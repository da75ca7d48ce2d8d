"""Printed card text compiled into abilities.

A rulebook's `card_text` section declares the game's printed phrases (ability markers, costs,
conditions, effect sentences and the smaller phrases they are made of), each a pattern with typed
slots and what it compiles to. `normalize` makes card text and patterns comparable, `grammar`
matches text against the phrases, `compiler` assembles abilities and reports what no phrase
matches, `cardfile` applies it to card files (compile, check, pin, stats) and `importer` builds
card files from published card lists.
"""
