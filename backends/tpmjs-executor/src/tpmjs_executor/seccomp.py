"""A seccomp filter refusing the system calls a tool never needs, as classic BPF for bwrap.

Assembled here (a few dozen instructions) rather than through libseccomp's bindings, which a
fresh machine may lack. Refused with EPERM: debugging other processes (ptrace,
process_vm_*), mounts and the new mount API, namespaces (unshare, setns, and clone with any
CLONE_NEW* flag), the kernel keyring, bpf, userfaultfd, perf_event_open, io_uring, module,
kexec, swap, reboot, quota, accounting and host-name calls, file handles, syslog. `clone3`
answers ENOSYS, so the C library falls back to `clone`, whose flags a filter can read.
Other architectures' system calls (the 32-bit ABIs) kill the process.
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = ["REFUSED", "filter_program"]

# seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6]
_NR, _ARCH, _ARG0_LOW = 0, 4, 16
_LD_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ, _JGE, _JSET = 0x15, 0x35, 0x45  # BPF_JMP | BPF_K | ...
_RET = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000
_ERRNO = 0x00050000
_X32_BIT = 0x40000000
# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
_CLONE_NEW = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000
_CLONE_NEW |= 0x20000000 | 0x40000000 | 0x00000080

REFUSED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr", "unshare", "setns",
    "add_key", "request_key", "keyctl", "bpf", "userfaultfd", "perf_event_open",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "swapon", "swapoff", "reboot", "sethostname", "setdomainname", "quotactl",
    "quotactl_fd", "acct", "name_to_handle_at", "open_by_handle_at", "lookup_dcookie",
    "syslog", "vhangup",
)  # fmt: skip

# Numbers from the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl and the
# generic table arm64 uses); the architectures' audit ids from linux/audit.h.
_X86_64 = {
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
    "pidfd_getfd": 438, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
    "fspick": 433, "mount_setattr": 442, "unshare": 272, "setns": 308, "add_key": 248,
    "request_key": 249, "keyctl": 250, "bpf": 321, "userfaultfd": 323,
    "perf_event_open": 298, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "init_module": 175, "finit_module": 313, "delete_module": 176,
    "kexec_load": 246, "kexec_file_load": 320, "swapon": 167, "swapoff": 168, "reboot": 169,
    "sethostname": 170, "setdomainname": 171, "quotactl": 179, "quotactl_fd": 443,
    "acct": 163, "name_to_handle_at": 303, "open_by_handle_at": 304, "lookup_dcookie": 212,
    "syslog": 103, "vhangup": 153, "clone": 56, "clone3": 435,
}  # fmt: skip
_AARCH64 = {
    "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272,
    "pidfd_getfd": 438, "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
    "fspick": 433, "mount_setattr": 442, "unshare": 97, "setns": 268, "add_key": 217,
    "request_key": 218, "keyctl": 219, "bpf": 280, "userfaultfd": 282,
    "perf_event_open": 241, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "init_module": 105, "finit_module": 273, "delete_module": 106,
    "kexec_load": 104, "kexec_file_load": 294, "swapon": 224, "swapoff": 225, "reboot": 142,
    "sethostname": 161, "setdomainname": 162, "quotactl": 60, "quotactl_fd": 443,
    "acct": 89, "name_to_handle_at": 264, "open_by_handle_at": 265, "lookup_dcookie": 18,
    "syslog": 116, "vhangup": 58, "clone": 220, "clone3": 435,
}  # fmt: skip
_ARCHES = {"x86_64": (0xC000003E, _X86_64), "aarch64": (0xC00000B7, _AARCH64)}


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k)


def filter_program(machine: str | None = None) -> bytes | None:
    """The compiled filter for `machine` (default: this one); None where no table is known."""
    found = _ARCHES.get(machine or platform.machine())
    if found is None:
        return None
    arch, numbers = found
    eperm, enosys = _ERRNO | errno.EPERM, _ERRNO | errno.ENOSYS
    program = [_insn(_LD_ABS, _ARCH), _insn(_JEQ, arch, 1, 0), _insn(_RET, _KILL_PROCESS)]
    program.append(_insn(_LD_ABS, _NR))
    if arch == 0xC000003E:  # the x32 ABI shares the architecture id; its numbers carry a bit
        program += [_insn(_JGE, _X32_BIT, 0, 1), _insn(_RET, _KILL_PROCESS)]
    for name in REFUSED:
        program += [_insn(_JEQ, numbers[name], 0, 1), _insn(_RET, eperm)]
    program += [_insn(_JEQ, numbers["clone3"], 0, 1), _insn(_RET, enosys)]
    program += [
        _insn(_JEQ, numbers["clone"], 0, 3),
        _insn(_LD_ABS, _ARG0_LOW),  # the flags (little-endian: the low half comes first)
        _insn(_JSET, _CLONE_NEW, 0, 1),
        _insn(_RET, eperm),
        _insn(_RET, _ALLOW),
    ]
    return b"".join(program)
