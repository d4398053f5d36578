"""The lesson server of ``tokens-edu serve``.

Two sides, two processes:

* the teacher's side, in the ``tokens-edu`` process: :mod:`.launcher` (checks, the first lines,
  Voila's command line, Ctrl-C), :mod:`.storage` (the answers folder's watch), :mod:`.lock`
  (one server per data folder), :mod:`.tls` (HTTPS);
* the Voila side, in Voila's process (``python -m tokens_edu.server``, :mod:`.voila`):
  :mod:`.pools` (warm kernels that follow demand), :mod:`.capacity` (the class cap),
  :mod:`.pages` and :mod:`.handlers` (what Voila serves, and its fixes), :mod:`.watch` (kernels
  given back, today's lesson, status lines), :mod:`.cpu` (each kernel's share of the
  processor), :mod:`.console` (what pages send kept plain), :mod:`.state`.

Both use :mod:`.memory` (free memory, a kernel's measured size) and :mod:`.today` (how a
teacher names today's lesson). Importing this package imports none of them.
"""
