#!/bin/sh
# lib/wait.sh of the stand-in: what monitors source.
wait_post_test() { "$LKP_SRC/bin/event/wait" post-test "$@"; }
wait_timeout()
{
	"$LKP_SRC/bin/event/wait" post-test --timeout "${1:-1}"
	rc=$?
	[ $rc -eq 62 ] || exit $rc
}
setup_wait()
{
	echo $$ >>"$TMP/.pid-wait-bg-procs"
	echo "${0##*/}" >>"$TMP/.name-wait-bg-procs"
}
