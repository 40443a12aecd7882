"""The machine a benchmark ran on, as the machine itself tells it (never a fixed string)."""

import os
import platform
from datetime import date
from pathlib import Path


def cpu_model():
    try:
        for line in Path('/proc/cpuinfo').read_text().splitlines():
            if line.startswith('model name'):
                return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def memory_gib():
    try:
        for line in Path('/proc/meminfo').read_text().splitlines():
            if line.startswith('MemTotal:'):
                return round(int(line.split()[1]) / 1024 / 1024)
    except OSError:
        pass
    return None


def describe():
    """'Measured 2026-11-29 on 2 cores of an AMD EPYC 7B13, 24 GiB, Linux 6.1, Python 3.11.7.'"""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()
    memory = memory_gib()
    return (f'Measured {date.today().isoformat()} on {cores} core{"s" if cores != 1 else ""} of '
            f'{cpu_model()}{f", {memory} GiB" if memory else ""}, {platform.system()} '
            f'{platform.release().split("-")[0]}, {platform.python_implementation()} {platform.python_version()}.')


if __name__ == '__main__':
    print(describe())
