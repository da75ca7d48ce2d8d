"""Abilities described in plain English, generated from what they compile to.

A reviewer checks a compiled ability by reading two sentences: the card's printed text and this
description (`sogo cards review`, `sogo card`). Nothing here knows a game: each verb and built-in
function says how it reads in its registry entry (`reads=`), and a rulebook's templates, keywords,
ability kinds, functions and events may each give their own reading (`reads:`). `fill`
(interpreter/model/readings.py, beside the vocabulary) fills a reading's placeholders, `expr` reads
expressions, `ability` reads steps, effects and abilities.
Where no reading exists the text falls back to the raw expression or id, in backticks, and the
reading names what is missing so a maintainer knows what to add.
"""

from interpreter.reading.ability import Reader, Reading

__all__ = ["Reader", "Reading"]
