"""`python -m contractgen.scaffold`: the copier task as project templates before 0.2 spell it.

The task lives in `contractgen.project.scaffold` now; projects made from an older template
version run this name during `copier update`, so it stays.
"""
