"""Packaging: the metadata is in setup.cfg; this file only ships the rule packs inside the package.

Authors edit packs in modules/<game>/; the wheel carries each pack's own files (not its example/
folder of module and saves, which stay in the clone) as vassal_adj/packs_data/<game>/, where
vassal_adj.pack_paths finds them with importlib.resources.
"""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["vassal_adj", "vassal_adj.*"]) + ["vassal_adj.packs_data"],
    package_dir={"vassal_adj.packs_data": "modules"},
    package_data={
        "vassal_adj": ["py.typed"],
        "vassal_adj.packs_data": ["*/*"],
        "vassal_adj.report": ["*.js", "*.css"],  # the terrain painter's script and style, inlined into its page
    },
)
