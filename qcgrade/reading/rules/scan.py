"""The scan layer's one switch: with it off, every shortcut that skips text is skipped itself.

The readers skip text a rule cannot match, by guards derived from the rules'
own data (which characters a veto looks at; which shapes a look-alike needs).
A guard may skip, never decide: ``tests/test_reading_scan.py`` reads the
corpora and generated text with ``ENABLED`` off and on and asks for the same
reading.
"""

ENABLED = True
