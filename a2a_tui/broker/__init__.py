"""The broker: a managed session reaches a2a only through its own socket, and is that session.

- `client.py`: the `a2a` a session runs (its shim, `<run>/bin/a2a`, first on its PATH; or the
  console script handing over when A2A_BROKER is set). Standard library only.
- `serve.py`: the broker process the orchestrator starts: a socket per live session, a forked
  child per request. `__main__.py` starts it.
- `request.py`: one request in its child: the caller from the socket (SO_PEERCRED as a second
  check), the allow-list, the files an agent names read by its client, the command.
- `commands.py`: which commands run this way, and the audit of what each may touch.

Nothing here is imported by the rest of a2a: the orchestrator starts the broker as a process
(panes/broker_host.py) and spawn writes the client's path into the session's shim.
"""
