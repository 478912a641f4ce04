"""What the compiled searches share: :mod:`.jit` the numba decorator (plain Python when numba
is not installed) and :mod:`.bits` the bit helpers of card masks.

The submodules are imported by name; this package imports none of them.
"""
