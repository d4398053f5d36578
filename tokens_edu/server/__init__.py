"""The lesson server: :mod:`.launcher` plans memory and starts Voila for ``tokens-edu serve``;
:mod:`.voila` is the Voila side (kernels, capacity, pages), run in Voila's own process.
"""
