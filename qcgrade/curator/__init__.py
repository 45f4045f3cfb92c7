"""The curator theory beside the audit: what a judge's error rates do to skill retirement.

- :mod:`.theory`: the curator algebra (the cliff ``(1 - tau)/2``, kappa, Prop. 1');
- :mod:`.channel`: seeded corruption of true labels (appendix C.1);
- :mod:`.simulate`: a Monte-Carlo of the curator loop;
- :mod:`.curve`: the simulated retirement curve, with a measured judge on it;
- :mod:`.stats`: the interval statistics they share.
"""
