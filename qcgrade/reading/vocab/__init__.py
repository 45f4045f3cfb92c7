"""The reading vocabulary as data: signs, currencies, magnitude words, look-alikes, abbreviations.

The files under ``generated/`` are made by :mod:`.build` from pinned versions of well-kept
sources (CLDR through Babel, the UTS #39 confusables, pySBD's abbreviation lists, the Unicode
Character Database through ``regex``) and checked in, so that reading them costs no third-party
import: :mod:`.data` reads them lazily with the standard library's TOML reader. Nothing in this
package imports a source library except :mod:`.build` and the ``from_*`` modules it runs.
"""
