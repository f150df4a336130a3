"""What the indexes publish, and the matrix checked against it (`envgen matrix verify`, the
refresh and audit scripts).

pypi    PEP 691 pages, wheel METADATA and wheel members by HTTP range reads -> PypiFacts
matrix  releases.yaml, companions.yaml and pip.yaml's PyPI builds against PypiFacts -> findings
"""
