"""Grading at scale: many processes on one machine (:mod:`.batch`), or a Ray cluster (:mod:`.ray`)."""
