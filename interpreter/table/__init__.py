"""A game in play as expressions read it: the contexts expressions are evaluated in, the positional
names, card attributes, the generic functions and the rulebook's own, and what an expression reads."""
