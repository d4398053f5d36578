"""HTTPS for ``tokens-edu serve`` on a school network: ``--certfile`` and ``--keyfile`` checked at
start (the Voila side serves with them, :mod:`.voila`; a warm kernel then asks for its page's
request over ``wss`` on this computer, :mod:`tokens_edu.session.address`)."""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageProblem

__all__ = ["certificate"]


def certificate(args) -> tuple[Path | None, Path | None]:
    """``--certfile`` and ``--keyfile``, checked (both readable, a certificate and its key).

    Raises:
        UsageProblem: a key without a certificate, a file missing, or a pair that does not fit.
    """
    certfile, keyfile = getattr(args, "certfile", None), getattr(args, "keyfile", None)
    if certfile is None:
        if keyfile is not None:
            raise UsageProblem("--keyfile needs --certfile (the certificate that goes with it).")
        return None, None
    certfile = Path(certfile).expanduser().resolve()
    keyfile = Path(keyfile).expanduser().resolve() if keyfile is not None else None
    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        if path is not None and not path.is_file():
            raise UsageProblem(f"{option} {path}: there is no such file.")
    import ssl

    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
            str(certfile), str(keyfile) if keyfile else None)
    except (ssl.SSLError, OSError) as e:
        raise UsageProblem(f"The certificate {certfile} cannot be used"
                           f"{' with the key ' + str(keyfile) if keyfile else ''}: "
                           f"{getattr(e, 'reason', None) or e}. Give a PEM certificate and its "
                           "private key (without a password).") from None
    return certfile, keyfile
