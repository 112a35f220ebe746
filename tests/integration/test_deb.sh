#!/usr/bin/env bash
# tests/integration/test_deb.sh - the Debian package: dpkg-buildpackage
# builds lockscope_*.deb from a copy of the tree, lintian finds no error, it
# holds the binary, man page, systemd unit, bash completion, Grafana
# dashboard and Prometheus example; installed, the unit is disabled,
# lockscope doctor runs and completion offers each command's own options;
# purged, nothing of it is left.
. "$(dirname "$0")/../lib.sh"

O=$LS_OUT/deb
rm -rf "$O"
mkdir -p "$O"

need_root "deb" || exit 0
need_cmd "deb" dpkg-buildpackage || exit 0
need_cmd "deb" dh || exit 0
if dpkg -s lockscope >/dev/null 2>&1; then
	# never replace or purge a lockscope someone installed here
	skip "deb: a lockscope package is installed on this machine already"
	exit 0
fi

# a copy of the tree: the build's clean step must not touch this one
mkdir -p "$O/src/lockscope"
tar -C "$LS_ROOT" --exclude=./build --exclude=./tests/out \
	--exclude=./lockscope --exclude=./.git -cf - . | tar -xf - -C "$O/src/lockscope"
(cd "$O/src/lockscope" &&
	DEB_BUILD_OPTIONS="parallel=2 nocheck" dpkg-buildpackage -us -uc -b) \
	>"$O/build.log" 2>&1
deb=$(ls "$O"/src/lockscope_*_*.deb 2>/dev/null | grep -v dbgsym | head -1)
if [ -z "$deb" ]; then
	fail "deb: dpkg-buildpackage -us -uc -b builds lockscope_*.deb (see $O/build.log)"
	exit 0
fi
pass "deb: dpkg-buildpackage -us -uc -b builds $(basename "$deb")"

if need_cmd "deb: lintian" lintian; then
	lintian "$O"/src/lockscope_*.changes >"$O/lintian.txt" 2>&1
	check "deb: lintian reports no errors ($(grep -c '^W:' "$O/lintian.txt") warnings)" \
		eval '! grep -q "^E:" "$O/lintian.txt"'
fi

dpkg -c "$deb" >"$O/contents.txt"
has() { grep -q " \./$1\$" "$O/contents.txt"; }
check "deb: holds the binary, man page, systemd unit, bash completion, dashboard and Prometheus example" \
	eval 'has usr/sbin/lockscope && has usr/share/man/man8/lockscope.8.gz &&
	has lib/systemd/system/lockscope.service &&
	has usr/share/bash-completion/completions/lockscope &&
	has usr/share/doc/lockscope/examples/grafana-dashboard.json &&
	has usr/share/doc/lockscope/examples/prometheus.yml'

# what exists of lockscope outside this tree, before and after
traces() {
	find /etc /lib /usr /var -name '*lockscope*' 2>/dev/null | sort
}
traces >"$O/before.txt"
if ! dpkg -i "$deb" >"$O/install.log" 2>&1; then
	fail "deb: dpkg -i installs it (see $O/install.log)"
	dpkg --purge lockscope >/dev/null 2>&1
	exit 0
fi
pass "deb: dpkg -i installs it"
check "deb: the systemd unit is installed disabled (no link in /etc/systemd/system)" \
	eval '[ -z "$(find /etc/systemd/system -name lockscope.service 2>/dev/null)" ]'
/usr/sbin/lockscope doctor >"$O/doctor.txt" 2>&1
rc=$?
check "deb: the installed lockscope doctor runs (exit 0, a tracepoints row)" \
	eval '[ "$rc" = 0 ] && grep -q "^tracepoints " "$O/doctor.txt"'

# complete WORDS...: what bash completion offers for the last word
complete_words() {
	bash -c 'source /usr/share/bash-completion/completions/lockscope
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _lockscope
		echo "${COMPREPLY[*]}"' _ "$@"
}
check "deb: completion offers the commands" \
	test "$(complete_words lockscope re)" = "record report"
check "deb: completion offers report's options and not serve's" \
	eval '[ "$(complete_words lockscope report --t)" = "--threshold" ] &&
	[ -z "$(complete_words lockscope report --lis)" ] &&
	[ "$(complete_words lockscope serve --lis)" = "--listen" ]'
# every option each command's --help lists, and only those
same=1
for c in top hist doctor serve record compare report; do
	want=$(/usr/sbin/lockscope "$c" --help | grep -oE '^ +(-[^-], )?--[a-z-]+' |
		grep -oE -- '--[a-z-]+' | sort | tr '\n' ' ')
	got=$(bash -c 'source /usr/share/bash-completion/completions/lockscope
		COMP_WORDS=(lockscope "$1" --); COMP_CWORD=2; _lockscope
		printf "%s\n" "${COMPREPLY[@]}"' _ "$c" | sort | tr '\n' ' ')
	[ "$want" = "$got" ] || {
		echo "  $c: --help lists '$want', completion '$got'"
		same=0
	}
done
check "deb: completion offers exactly the long options each command's --help lists" test "$same" = 1

dpkg --purge lockscope >"$O/purge.log" 2>&1
check "deb: dpkg --purge removes it" eval '! dpkg -s lockscope >/dev/null 2>&1'
traces >"$O/after.txt"
check "deb: nothing is left behind after the purge" diff "$O/before.txt" "$O/after.txt"
