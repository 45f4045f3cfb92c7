"""Grounding (tier 3): what a citing sentence states, compared with what its cards state.

Pure functions over the immutable :class:`~qcgrade.reading.section.Section` and the
evidence slice. :mod:`.values` reads numbers as values (the one place the
matching rules live), :mod:`.directions` reads direction words with
negation, and :mod:`.match` ties a sentence's numbers and directions to the
cards it cites. The checks ``value_mismatch`` and ``polarity_mismatch`` in
:mod:`qcgrade.checks` turn the misses into findings.
"""
