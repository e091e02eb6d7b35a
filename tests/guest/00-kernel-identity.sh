# SPDX-License-Identifier: GPL-2.0
#
# The guest runs our kernel: the release names the project and the base,
# the options idle tracking depends on are built in, and the series'
# interfaces are there: /proc/kpageidle and its KPAGEIDLE_SCAN ioctl (a
# kernel whose patches did not apply must fail here, not skip elsewhere).
set -e

# The base the host built (make KERNEL=, passed as idlemem.base=; 6.1 when
# absent): a kernel of the other base must not pass for it.
base=6.1
for a in $(cat /proc/cmdline); do
	case $a in idlemem.base=*) base=${a#idlemem.base=} ;; esac
done
release=$(uname -r)
case $release in
"$base".*-idlemem) ;;
*) echo "kernel release '$release' is not an idlemem $base kernel"; exit 1 ;;
esac

for opt in CONFIG_IDLE_PAGE_TRACKING CONFIG_MEMCG CONFIG_TRANSPARENT_HUGEPAGE CONFIG_LRU_GEN; do
	if ! zcat /proc/config.gz | grep -qx "$opt=y"; then
		echo "$opt is not built in"
		exit 1
	fi
done

# ... and the files they create exist.
for f in /sys/kernel/mm/page_idle/bitmap /proc/kpagecgroup /proc/kpageflags \
	/sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/lru_gen/enabled \
	/sys/fs/cgroup/memory.stat /proc/kpageidle; do
	[ -e "$f" ] || { echo "$f is missing"; exit 1; }
done
# the scan ioctl over the first 64 PFNs (pfnstate exits 1 naming the
# error, ENOTTY on a kernel without it)
out=$(pfnstate range 0 64) || { echo "KPAGEIDLE_SCAN failed"; exit 1; }
case $out in
"scanned=64 "*) echo "KPAGEIDLE_SCAN: $out" ;;
*) echo "KPAGEIDLE_SCAN over PFNs 0-63: '$out', want scanned=64"; exit 1 ;;
esac

# The scratch disk holds real page cache.
grep -q ' /mnt/scratch ext4 ' /proc/mounts || { echo "/mnt/scratch is not an ext4 mount"; exit 1; }
grep -qw memory /sys/fs/cgroup/cgroup.subtree_control || { echo "memory controller not enabled for children"; exit 1; }
echo "kernel $release ok"

# vm/run passes the -smp count as idlemem.cpus; every one of them must be
# online (without ACPI the guest finds only the boot CPU), because the
# stress tests look for races between CPUs.
want=$(sed -n 's/.*idlemem\.cpus=\([0-9]*\).*/\1/p' /proc/cmdline)
have=$(grep -c '^processor' /proc/cpuinfo)
[ -z "$want" ] || [ "$have" = "$want" ] || {
	echo "$have CPU(s) online, vm/run started $want"; exit 1; }
echo "$have CPU(s) online"
