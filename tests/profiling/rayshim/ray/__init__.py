"""Stand-in for Ray in ProfStudio's tests (Ray is not packaged in Debian; no test can start one).

It offers the calls the generated digest job makes (init, nodes, remote, options, wait, get),
records each as one JSON line in $RAY_STANDIN_LOG, and runs every task at once, in this process,
"on" the node it is pinned to: with that node's folder as the working directory. The nodes are
$RAY_STANDIN_NODES, "ID=FOLDER;ID=FOLDER;..."; a node folder plays the node's filesystem, so the
run's relative folders resolve there as they would on that node.
"""
import json
import os

_NODE_ROOTS = {}


def _log(**record):
    path = os.environ.get("RAY_STANDIN_LOG")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps(record, default=repr) + "\n")


def _roots():
    if not _NODE_ROOTS:
        for item in filter(None, os.environ.get("RAY_STANDIN_NODES", "").split(";")):
            node_id, root = item.split("=", 1)
            _NODE_ROOTS[node_id] = root
    return _NODE_ROOTS


def init(address=None, **kwargs):
    _log(call="init", address=address)


def nodes():
    _log(call="nodes")
    return [{"NodeID": node_id, "Alive": True, "NodeManagerHostname": node_id,
             "NodeManagerAddress": "10.0.0.%d" % i} for i, node_id in enumerate(_roots())]


class ObjectRef:
    def __init__(self, value=None, error=None):
        self.value, self.error = value, error


class _RemoteFunction:
    def __init__(self, fn, options):
        self._fn, self._options = fn, dict(options)

    def options(self, **options):
        return _RemoteFunction(self._fn, dict(self._options, **options))

    def remote(self, *args):
        strategy = self._options.get("scheduling_strategy")
        node_id = getattr(strategy, "node_id", None)
        _log(call="task", function=self._fn.__name__, node_id=node_id, soft=getattr(strategy, "soft", None),
             strategy=type(strategy).__name__, num_cpus=self._options.get("num_cpus"), args=list(args))
        here = os.getcwd()
        try:
            os.chdir(_roots()[node_id])
            return ObjectRef(value=self._fn(*args))
        except Exception as e:  # surfaces at get(), as Ray's RayTaskError does
            return ObjectRef(error=e)
        finally:
            os.chdir(here)


def remote(*args, **options):
    if len(args) == 1 and callable(args[0]) and not options:
        return _RemoteFunction(args[0], {})
    return lambda fn: _RemoteFunction(fn, options)


def wait(refs, num_returns=1):
    _log(call="wait", pending=len(refs))
    return list(refs[:num_returns]), list(refs[num_returns:])


def get(ref):
    if ref.error is not None:
        raise ref.error
    return ref.value
