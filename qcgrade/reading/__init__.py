"""Reading: from markdown text to the :class:`Section` a reader sees.

The stages, in order (the only package that touches markdown-it-py):

- :mod:`.markdown`: the markdown-it-py parser, and the one place that reaches
  into its internals;
- :mod:`.inline`: inline content, read for what a reader sees;
- :mod:`.html`: raw HTML, read as a browser tokenizes it;
- :mod:`.source_map`: token content back to offsets in the original text;
- :mod:`.projection`: the visible text with its map to source offsets;
- :mod:`.document`: the walk over block tokens into visible units;
- :mod:`.lexicon`: the shapes read in visible text (markers, numerals, sentence ends);
- :mod:`.section`: the immutable parsed :class:`Section` every check reads.
"""

from __future__ import annotations

from .section import Marker, Numeral, Section, Sentence, Tldr, parse_section

__all__ = ["Marker", "Numeral", "Section", "Sentence", "Tldr", "parse_section"]
