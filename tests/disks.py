"""Disks a test makes itself, for the server to run on: a small ext4 file system on a loop device
(mounted errors=remount-ro, as a server's disk is) or a small tmpfs, mounted in a mount namespace of
their own. A process that only waits holds the namespace: a server started under `prefix` (nsenter)
sees the disk, nothing else on the machine does, and the disk goes away with its holder however
the test ends. Then the test breaks the disk while the server runs: `trip()` makes ext4 fail as a
failing disk does (it turns read-only underneath open files, `os.access` still saying writable), and
`fill()` leaves no byte free; `free()` gives the space back.

Only root can mount: elsewhere `Disk.make` skips the test, saying why."""

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest


class Disk:
    """A file system mounted at `folder` in a mount namespace of its own (see the module's docstring)."""

    def __init__(self, folder, kind='ext4', size_mb=16):
        self.folder, self.kind, self.size_mb = Path(folder), kind, size_mb
        self.holder = None

    @classmethod
    def make(cls, folder, kind='ext4', size_mb=16):
        """A disk mounted and ready, or the test skipped where this machine cannot mount one."""
        if os.geteuid() != 0:
            pytest.skip('only root can mount a disk for the test')
        missing = [tool for tool in ('unshare', 'nsenter', 'mount', 'mkfs.ext4') if not shutil.which(tool)]
        if missing:
            pytest.skip(f'this machine lacks {", ".join(missing)}')
        disk = cls(folder, kind, size_mb)
        why = disk.mount()
        if why:
            pytest.skip(f'this machine cannot mount a {kind} disk: {why}')
        return disk

    def mount(self):
        """Mount the disk in a namespace held by a waiting process; what went wrong, or None."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.kind == 'ext4':
            image = self.folder.with_name(self.folder.name + '.img')
            with open(image, 'wb') as f:
                f.truncate(self.size_mb << 20)
            made = subprocess.run(['mkfs.ext4', '-q', '-F', str(image)], capture_output=True, text=True)
            if made.returncode:
                return made.stderr.strip()
            mount = f'mount -o loop,errors=remount-ro "{image}" "$0"'
        else:
            mount = f'mount -t tmpfs -o size={self.size_mb}m tmpfs "$0"'
        self.holder = subprocess.Popen(
            ['unshare', '--mount', '--propagation', 'private', 'sh', '-c', f'{mount} && echo ready && exec sleep infinity',
             str(self.folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        if self.holder.stdout.readline().strip() != 'ready':
            why = self.holder.stderr.read().strip() if self.holder.wait(timeout=10) is not None else 'no answer'
            self.holder = None
            return why or 'mount failed'
        return None

    @property
    def prefix(self):
        """The command prefix that runs a command (a server) with this disk mounted."""
        return ['nsenter', '-t', str(self.holder.pid), '-m', '--wd=.', '--']      # the caller's folder

    def run(self, *command):
        """Run a command with the disk mounted; its output (it must succeed)."""
        return subprocess.run(self.prefix + list(command), capture_output=True, text=True, check=True).stdout

    def trip(self):
        """An error in the file system, as a failing disk gives: ext4 mounted errors=remount-ro turns
        read-only at once, under the files open for writing (the mount still says rw)."""
        assert self.kind == 'ext4'
        device = self.run('findmnt', '-n', '-o', 'SOURCE', str(self.folder)).strip()
        trigger = Path(f'/sys/fs/ext4/{Path(device).name}/trigger_fs_error')
        if not trigger.exists():
            pytest.skip("this kernel's ext4 cannot be made to fail on purpose (no trigger_fs_error)")
        trigger.write_text('1')
        assert 'emergency_ro' in self.run('findmnt', '-n', '-o', 'OPTIONS', str(self.folder))

    def fill(self):
        """Take every free byte of the disk (a file `filler`)."""
        self.run('sh', '-c', f'cat /dev/zero > "{self.folder}/filler" 2>/dev/null; true')
        assert self.run('df', '--output=avail', str(self.folder)).split()[-1] == '0'

    def free(self):
        """Give the space fill() took back."""
        self.run('rm', '-f', str(self.folder / 'filler'))

    def remove(self):
        """Unmount: the holder ends, and its namespace (with the mount) with it."""
        if self.holder and self.holder.poll() is None:
            os.killpg(self.holder.pid, signal.SIGKILL)
            self.holder.wait(timeout=10)
