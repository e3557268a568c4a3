"""The rules of Mafia: two rule sets (uz, uk), pure and replayable.

A game is (rule set, options, seed, seating, action log); its state is the replay of the log.
Nothing here reads a clock, does I/O, or imports anything outside the standard library.
"""
