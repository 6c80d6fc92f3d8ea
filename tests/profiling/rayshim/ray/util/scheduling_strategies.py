"""Stand-in for ray.util.scheduling_strategies (see ray/__init__.py)."""


class NodeAffinitySchedulingStrategy:
    def __init__(self, node_id, soft, _spill_on_unavailable=False, _fail_on_unavailable=False):
        self.node_id, self.soft = node_id, soft
