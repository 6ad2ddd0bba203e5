# perfwatch — a plain GNU Makefile.  Every library comes through pkg-config
# ($(PKG_CONFIG), which a cross build names).
#
#   make            build bin/perfwatch and bin/perfwatchd
#   make run        install what is missing, then run the main job
#   make check      install what is missing, build, run every test
#   make check-asan the same tests under AddressSanitizer and UBSan
#   make fuzz       each libFuzzer target for a short, bounded time
#   make test       the tests, without make deps (TESTS='unit/* ...': some;
#                   JOBS=N at once, default a CPU each)
#   make dist       build/perfwatch-VERSION.tar.gz of HEAD; distcheck tests it
#   make install    PREFIX=/usr/local DESTDIR= (SYSCONFDIR and the other
#                   directories below; the service files are those of the
#                   system, UNAME_S: systemd's on Linux, rc.d on FreeBSD)
#   make uninstall  the same, the other way (the configuration stays)

# The system installed for: its service files (make UNAME_S=NetBSD
# installs as on NetBSD).
UNAME_S	:= $(shell uname -s)
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
SBINDIR	?= $(PREFIX)/sbin
MANDIR	?= $(PREFIX)/share/man
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
DOCDIR	?= $(PREFIX)/share/doc/perfwatch
EXAMPLEDIR ?= $(PREFIX)/share/perfwatch
# systemd's unit, sysusers.d and tmpfiles.d files, on Linux only, where
# systemd may run; a directory left empty installs none (a Linux without
# systemd: SYSTEMDDIR= SYSUSERSDIR= TMPFILESDIR=).  FreeBSD's rc.d
# script, on FreeBSD only (RCDIR= none), beside the configuration, where
# rc(8) reads it: /usr/local/etc/rc.d, or /etc/rc.d for PREFIX=/usr.
LINUX	 = $(filter Linux,$(UNAME_S))
SYSTEMDDIR ?= $(if $(LINUX),$(PREFIX)/lib/systemd/system)
SYSUSERSDIR ?= $(if $(LINUX),$(PREFIX)/lib/sysusers.d)
TMPFILESDIR ?= $(if $(LINUX),$(PREFIX)/lib/tmpfiles.d)
RCDIR	?= $(if $(filter FreeBSD,$(UNAME_S)),$(SYSCONFDIR)/rc.d)
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DESTDIR	?=

BUILD	?= build
CC	?= cc
PKG_CONFIG ?= pkg-config
# The programs' libraries; cmocka only for the unit tests, so that the
# installed binaries do not depend on it.
PKGS	 = libevent sqlite3 libgit2 inih jansson libcurl gsl libcrypto
TEST_PKGS = cmocka

# Warnings are errors here and in CI; a distribution building with a
# newer compiler than ours, whose new warnings should not stop its
# build, says WERROR= (the warnings are still printed).
WERROR	?= -Werror
WARN	 = -Wall -Wextra -Wformat=2 -Wshadow -Wmissing-prototypes \
	   -Wstrict-prototypes -Wpointer-arith $(WERROR)
OPT	?= -O2 -g
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
TEST_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS  := $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)
# The modules pkg-config cannot find (every one without pkg-config).  An
# object is not compiled while one of its modules is missing: the build
# stops with the package to install (pkg-missing), rather than on a
# header not found or a link line without its libraries.
pkg_missing = $(shell for m in $(1); do \
	$(PKG_CONFIG) --exists $$m 2>/dev/null || echo $$m; done)
PKG_MISSING := $(call pkg_missing,$(PKGS))
TEST_PKG_MISSING := $(call pkg_missing,$(TEST_PKGS))
SAN_FLAGS =
ifeq ($(SAN),1)
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer
endif
# -ffile-prefix-map: the debugging information names the sources from
# the top of the tree, not the directory it was built in, so that the
# same sources give the same binaries wherever they are built.
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread $(OPT) \
	     $(WARN) $(SAN_FLAGS) -ffile-prefix-map=$(CURDIR)=. \
	     -I. -Icommon $(PKG_CFLAGS) $(TEST_CFLAGS) $(CPPFLAGS) $(CFLAGS) \
	     -DSYSCONFDIR='"$(SYSCONFDIR)"' -DBINDIR='"$(BINDIR)"' \
	     -DPROFILEDIR='"$(EXAMPLEDIR)/profiles"'
# CFLAGS link too, as the GNU coding standards want of every compiler
# call: a flag that changes what the objects need (--coverage, -pg,
# -fsanitize=, -m32) needs the same at the link.
ALL_LDFLAGS = -pthread $(SAN_FLAGS) $(CFLAGS) $(LDFLAGS)
LDLIBS_ALL = $(PKG_LIBS) -lm

# Library modules, most dependent first (the static link order).
MODULES	 = bisect notify view detect workloads store sysinfo common

define module_vars
SRC_$(1) := $$(wildcard $(1)/*.c)
OBJ_$(1) := $$(patsubst %.c,$$(BUILD)/%.o,$$(SRC_$(1)))
LIB_$(1) := $$(BUILD)/lib/lib$(1).a
endef
$(foreach m,$(MODULES) cli daemon,$(eval $(call module_vars,$(m))))

ALL_MODLIBS = $(foreach m,$(MODULES),$(if $(SRC_$(m)),$(LIB_$(m))))

PERFWATCH  = $(BUILD)/bin/perfwatch
PERFWATCHD = $(BUILD)/bin/perfwatchd

# Unit tests: tests/unit/test_<name>.c links the modules named by
# TEST_MODS_<name> (default: <name> and common), in MODULES order.
UNIT_SRC  = $(wildcard tests/unit/test_*.c)
UNIT_BIN  = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
BENCH_SRC = $(wildcard bench/*.c)
BENCH_BIN = $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))
TEST_MODS_common   = common
TEST_MODS_store    = store sysinfo common
TEST_MODS_detect   = detect store sysinfo common
TEST_MODS_stats    = detect common
TEST_MODS_sysinfo  = sysinfo common
TEST_MODS_workloads = workloads sysinfo common
TEST_MODS_config   = common
TEST_MODS_cron     = common
TEST_MODS_daemon_job = common
TEST_MODS_daemon_kernel = sysinfo common
TEST_MODS_daemon_html = common
TEST_MODS_view     = view detect store sysinfo common
TEST_MODS_notify   = notify detect store sysinfo common
TEST_MODS_bench_noise = workloads sysinfo common
test_mods = $(filter $(or $(TEST_MODS_$(1)),$(1) common),$(MODULES))
test_libs = $(foreach m,$(call test_mods,$(1)),$(if $(SRC_$(m)),$(LIB_$(m))))

# Keep the objects of tests and benches: they are not throw-away.
.SECONDARY:

.PHONY: all build-all run check check-asan check-build test fuzz install uninstall \
	clean deps bench dist distcheck pkg-missing test-pkg-missing

all: $(PERFWATCH) $(if $(SRC_daemon),$(PERFWATCHD))

# clean beside other goals (make -j2 clean all): one goal at a time, in
# the order given.  In parallel, all was found up to date while clean
# ran, and clean then removed what it had found: no programs, exit 0.
ifneq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(filter-out clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif
endif

deps:
	@sh scripts/deps.sh

# What the objects are compiled with, the paths included, and the
# libraries they are linked to.  When it changes (make install
# PREFIX=/usr after a plain make), everything is compiled again, rather
# than installing binaries that look for their configuration under
# /usr/local/etc.
FLAGS_STAMP = $(BUILD)/flags
FLAGS_NOW  := $(strip $(CC) $(ALL_CFLAGS) : $(ALL_LDFLAGS) $(LDLIBS_ALL) \
	      $(TEST_LIBS))
ifneq ($(FLAGS_NOW),$(strip $(file <$(FLAGS_STAMP))))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_STAMP),$(FLAGS_NOW))
endif
# Written again when a goal before the build removed it (make clean all),
# which left every object without a rule.
$(FLAGS_STAMP):
	$(shell mkdir -p $(dir $@))$(file >$@,$(FLAGS_NOW))

$(BUILD)/%.o: %.c $(FLAGS_STAMP) | $(if $(PKG_MISSING),pkg-missing)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The unit tests need cmocka too; the programs do not.
$(patsubst %.c,$(BUILD)/%.o,$(UNIT_SRC)): | \
	$(if $(TEST_PKG_MISSING),test-pkg-missing)

pkg-missing:
	@sh scripts/pkgcheck.sh '$(PKG_CONFIG)' $(PKG_MISSING)
test-pkg-missing:
	@sh scripts/pkgcheck.sh '$(PKG_CONFIG)' $(TEST_PKG_MISSING)

$(BUILD)/lib/lib%.a:
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(foreach m,$(MODULES),$(eval $(LIB_$(m)): $(OBJ_$(m))))

$(PERFWATCH): $(OBJ_cli) $(ALL_MODLIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $(OBJ_cli) $(ALL_MODLIBS) $(LDLIBS_ALL)

$(PERFWATCHD): $(OBJ_daemon) $(ALL_MODLIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $(OBJ_daemon) $(ALL_MODLIBS) $(LDLIBS_ALL)

.SECONDEXPANSION:
$(BUILD)/tests/test_%: $(BUILD)/tests/unit/test_%.o $$(call test_libs,$$*)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(call test_libs,$*) $(TEST_LIBS) \
	    $(LDLIBS_ALL)

# Every header compiles on its own: no header leans on what its includer
# happened to include first.
HDRS	 = $(wildcard $(foreach d,$(MODULES) cli daemon bench,$(d)/*.h))
HDR_OK	 = $(patsubst %.h,$(BUILD)/hdr/%.ok,$(HDRS))
$(BUILD)/hdr/%.ok: %.h $(HDRS) $(FLAGS_STAMP) | \
	$(if $(PKG_MISSING),pkg-missing)
	@mkdir -p $(dir $@)
	printf '#include "%s"\n' $< | $(CC) $(ALL_CFLAGS) -fsyntax-only -x c -
	@touch $@

# Build everything (the benches too, so they never rot unbuilt), then run
# the unit and integration tests.
build-all: all $(UNIT_BIN) $(BENCH_BIN) $(HDR_OK)

# TESTS: only the tests whose names match these globs (tests/run.sh);
# JOBS: how many run at once (default: the CPUs online).
TESTS	?=
JOBS	?=
test: build-all
	@set -f; BUILD=$(BUILD) $(if $(JOBS),JOBS=$(JOBS)) sh tests/run.sh $(TESTS)

# The checks build with a job a CPU (make -jN on the command line wins).
NPROC	:= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
JFLAG	 = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

check: deps
	@$(MAKE) --no-print-directory $(JFLAG) build-all
	@$(MAKE) --no-print-directory test

check-asan: deps
	@$(MAKE) --no-print-directory $(JFLAG) BUILD=build-asan SAN=1 \
	    OPT="-O1 -g" build-all
	@$(MAKE) --no-print-directory BUILD=build-asan SAN=1 OPT="-O1 -g" test

# What a distribution's build does: clang, then gcc with Debian's hardening
# flags (fortified libc calls, whose results must be used); built, not run.
# The clang build is installed to a DESTDIR with its own PREFIX, then
# with PREFIX=/usr, which must compile it again for those paths
# (tests/install_check.sh), and uninstalled from there.  The hardened
# build is installed too, and its programs must carry what the flags ask
# for (tests/harden_check.sh: PIE, RELRO, BIND_NOW, stack protector,
# fortified calls).
HARDEN_FLAGS = CPPFLAGS="-Wdate-time -D_FORTIFY_SOURCE=3" \
	CFLAGS="-fstack-protector-strong -Wformat -Werror=format-security" \
	LDFLAGS="-Wl,-z,relro -Wl,-z,now"
check-build: deps
	@$(MAKE) --no-print-directory $(JFLAG) BUILD=build-clang CC=clang \
	    build-all
	@rm -rf build-clang/root
	@$(MAKE) --no-print-directory BUILD=build-clang CC=clang \
	    DESTDIR=$(CURDIR)/build-clang/root install >/dev/null
	@sh tests/install_check.sh $(CURDIR)/build-clang/root $(PREFIX) \
	    $(SYSCONFDIR)
	@rm -rf build-clang/root
	@$(MAKE) --no-print-directory $(JFLAG) BUILD=build-clang CC=clang \
	    PREFIX=/usr DESTDIR=$(CURDIR)/build-clang/root install >/dev/null
	@sh tests/install_check.sh $(CURDIR)/build-clang/root /usr /etc
	@$(MAKE) --no-print-directory BUILD=build-clang CC=clang PREFIX=/usr \
	    DESTDIR=$(CURDIR)/build-clang/root uninstall >/dev/null
	@sh tests/install_check.sh -u $(CURDIR)/build-clang/root /usr /etc
	@$(MAKE) --no-print-directory $(JFLAG) BUILD=build-harden \
	    $(HARDEN_FLAGS) build-all
	@rm -rf build-harden/root
	@$(MAKE) --no-print-directory BUILD=build-harden $(HARDEN_FLAGS) \
	    DESTDIR=$(CURDIR)/build-harden/root install >/dev/null
	@sh tests/harden_check.sh build-harden/root$(BINDIR)/perfwatch \
	    build-harden/root$(SBINDIR)/perfwatchd
	@rm -rf build-harden/root

# A release tarball: what git tracks at HEAD (less what .gitattributes
# marks export-ignore), under perfwatch-VERSION/, the version that of
# common/perfwatch.h.  distcheck unpacks it away from this checkout,
# builds everything there, runs the tests DISTCHECK_TESTS names (all by
# default) and installs it to a scratch DESTDIR for install_check.sh.
# Then it unpacks it again in a directory of another name, builds and
# installs that with make -j2, and wants the same files, byte for byte:
# a reproducible build, whatever the directory and the job count.
VERSION	:= $(shell sed -n 's/.*define PERFWATCH_VERSION[^"]*"\([^"]*\)".*/\1/p' \
	     common/perfwatch.h)
DIST	 = perfwatch-$(VERSION)
DISTCHECK_TESTS ?=
dist:
	@sh scripts/dist.sh $(BUILD) $(DIST)

distcheck: deps dist
	@rm -rf $(BUILD)/distcheck
	@mkdir -p $(BUILD)/distcheck
	tar -xzf $(BUILD)/$(DIST).tar.gz -C $(BUILD)/distcheck
	@$(MAKE) --no-print-directory -C $(BUILD)/distcheck/$(DIST) BUILD=build \
	    TESTS='$(DISTCHECK_TESTS)' test
	@$(MAKE) --no-print-directory -C $(BUILD)/distcheck/$(DIST) BUILD=build \
	    DESTDIR=$(abspath $(BUILD))/distcheck/root install >/dev/null
	@sh tests/install_check.sh $(abspath $(BUILD))/distcheck/root $(PREFIX) \
	    $(SYSCONFDIR)
	@mkdir -p $(BUILD)/distcheck/elsewhere
	tar -xzf $(BUILD)/$(DIST).tar.gz -C $(BUILD)/distcheck/elsewhere
	@$(MAKE) --no-print-directory -C $(BUILD)/distcheck/elsewhere/$(DIST) \
	    BUILD=build -j2 DESTDIR=$(abspath $(BUILD))/distcheck/root2 \
	    install >/dev/null
	@diff -r $(BUILD)/distcheck/root $(BUILD)/distcheck/root2 || { \
	    echo "distcheck: built in another directory, the install differs"; \
	    exit 1; }
	@rm -rf $(BUILD)/distcheck
	@echo "distcheck: $(BUILD)/$(DIST).tar.gz builds, passes its tests and installs"

# Main job: see README.md.  It grows with the project.
run: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) sh scripts/run.sh

# libFuzzer targets under tests/fuzz/, built with clang into build-fuzz/;
# undefined behaviour stops a target as a crash does.  FUZZ_SECONDS=0
# only runs each target over its seeds (CI: tests/fuzz/run.sh).
FUZZ_SECONDS ?= 20
FUZZ_SAN = -fsanitize=fuzzer-no-link,address,undefined \
	   -fno-sanitize-recover=all
fuzz: deps
	@$(MAKE) --no-print-directory $(JFLAG) BUILD=build-fuzz CC=clang \
	    SAN_FLAGS="$(FUZZ_SAN)" OPT="-O1 -g" fuzz-build
	@sh tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

FUZZ_SRC = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN = $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
fuzz-build: $(FUZZ_BIN)
$(BUILD)/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(ALL_MODLIBS)
	@mkdir -p $(dir $@)
	$(CC) -fsanitize=fuzzer,address,undefined -o $@ $< $(ALL_MODLIBS) $(LDLIBS_ALL)

# Benchmarks of perfwatch itself: bench/*.c become $(BUILD)/bench/*;
# see bench/README.md for what each prints.
bench: deps
	@$(MAKE) --no-print-directory all $(BENCH_BIN)
	@echo "built: $(BENCH_BIN)"
$(BUILD)/bench/%: $(BUILD)/bench/%.o $(ALL_MODLIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(ALL_MODLIBS) $(LDLIBS_ALL)

# The manuals and the sample configuration name /etc/perfwatch,
# /usr/share/perfwatch (or /usr/local/share/perfwatch) and
# /usr/share/bash-completion: install writes the paths of this install
# in their place, the ones compiled into the programs.
INSTALL_PATHS = -e 's\#/etc/perfwatch/\#$(SYSCONFDIR)/perfwatch/\#g' \
	-e 's\#/usr/local/share/perfwatch/\#$(EXAMPLEDIR)/\#g' \
	-e 's\#/usr/share/perfwatch/\#$(EXAMPLEDIR)/\#g' \
	-e 's\#/usr/share/bash-completion/completions/\#$(BASHCOMPDIR)/\#g'

# LICENSE goes to DOCDIR, with README.md: the ISC notice goes with
# every copy, and one of the examples is under the Apache License 2.0
# (LICENSE says which), whose text and the NOTICE of the work it comes
# from must go with every copy of it too.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR)
	install -m 0755 $(PERFWATCH) $(DESTDIR)$(BINDIR)/perfwatch
	if [ -f $(PERFWATCHD) ]; then install -m 0755 $(PERFWATCHD) \
	    $(DESTDIR)$(SBINDIR)/perfwatchd; fi
	for s in 1 5 8; do \
	    for f in man/*.$$s; do [ -f "$$f" ] || continue; \
	        install -d $(DESTDIR)$(MANDIR)/man$$s; \
	        sed $(INSTALL_PATHS) \
	            $$f >$(DESTDIR)$(MANDIR)/man$$s/$${f##*/}; \
	        chmod 0644 $(DESTDIR)$(MANDIR)/man$$s/$${f##*/}; done; done
	install -d $(DESTDIR)$(SYSCONFDIR)/perfwatch/profiles \
	    $(DESTDIR)$(EXAMPLEDIR)/profiles $(DESTDIR)$(EXAMPLEDIR)/examples
	sed $(INSTALL_PATHS) etc/perfwatch.conf \
	    >$(DESTDIR)$(EXAMPLEDIR)/perfwatch.conf
	chmod 0644 $(DESTDIR)$(EXAMPLEDIR)/perfwatch.conf
	install -m 0644 etc/profiles/*.conf $(DESTDIR)$(EXAMPLEDIR)/profiles/
	install -m 0644 etc/examples/* $(DESTDIR)$(EXAMPLEDIR)/examples/
	install -d $(DESTDIR)$(DOCDIR)
	install -m 0644 LICENSE LICENSE.Apache-2.0 NOTICE README.md \
	    $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 0644 etc/bash-completion/perfwatch \
	    $(DESTDIR)$(BASHCOMPDIR)/perfwatch
	install -m 0644 etc/bash-completion/perfwatch \
	    $(DESTDIR)$(BASHCOMPDIR)/perfwatchd
	[ -f $(DESTDIR)$(SYSCONFDIR)/perfwatch/perfwatch.conf ] || \
	    install -m 0644 $(DESTDIR)$(EXAMPLEDIR)/perfwatch.conf \
	        $(DESTDIR)$(SYSCONFDIR)/perfwatch/
	for f in etc/profiles/*.conf; do \
	    [ -f $(DESTDIR)$(SYSCONFDIR)/perfwatch/profiles/$${f##*/} ] || \
	    install -m 0644 $$f $(DESTDIR)$(SYSCONFDIR)/perfwatch/profiles/; done
ifneq ($(RCDIR),)
	install -d $(DESTDIR)$(RCDIR)
	sed -e 's#/usr/local/sbin/#$(SBINDIR)/#g' \
	    -e 's#/usr/local/etc/perfwatch/#$(SYSCONFDIR)/perfwatch/#g' \
	    rc.d/perfwatchd >$(DESTDIR)$(RCDIR)/perfwatchd
	chmod 0755 $(DESTDIR)$(RCDIR)/perfwatchd
endif
ifneq ($(SYSTEMDDIR),)
	install -d $(DESTDIR)$(SYSTEMDDIR)
	sed -e 's#/usr/sbin/perfwatchd#$(SBINDIR)/perfwatchd#g' \
	    -e 's#/etc/perfwatch/#$(SYSCONFDIR)/perfwatch/#g' \
	    systemd/perfwatchd.service >$(DESTDIR)$(SYSTEMDDIR)/perfwatchd.service
	chmod 0644 $(DESTDIR)$(SYSTEMDDIR)/perfwatchd.service
endif
ifneq ($(SYSUSERSDIR),)
	install -d $(DESTDIR)$(SYSUSERSDIR)
	install -m 0644 systemd/perfwatch.sysusers \
	    $(DESTDIR)$(SYSUSERSDIR)/perfwatch.conf
endif
ifneq ($(TMPFILESDIR),)
	install -d $(DESTDIR)$(TMPFILESDIR)
	install -m 0644 systemd/perfwatch.tmpfiles \
	    $(DESTDIR)$(TMPFILESDIR)/perfwatch.conf
endif

# The service files install wrote, those whose directory is not empty.
SERVICE_FILES = $(if $(RCDIR),$(RCDIR)/perfwatchd) \
	$(if $(SYSTEMDDIR),$(SYSTEMDDIR)/perfwatchd.service) \
	$(if $(SYSUSERSDIR),$(SYSUSERSDIR)/perfwatch.conf) \
	$(if $(TMPFILESDIR),$(TMPFILESDIR)/perfwatch.conf)

# What install put there, but the configuration in SYSCONFDIR, which a
# person may have edited: as a package removal keeps a conffile.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/perfwatch $(DESTDIR)$(SBINDIR)/perfwatchd
	rm -f $(DESTDIR)$(MANDIR)/man1/perfwatch.1 \
	    $(DESTDIR)$(MANDIR)/man5/perfwatch.conf.5 \
	    $(DESTDIR)$(MANDIR)/man8/perfwatchd.8
	rm -rf $(DESTDIR)$(EXAMPLEDIR)
	rm -f $(DESTDIR)$(DOCDIR)/LICENSE $(DESTDIR)$(DOCDIR)/README.md \
	    $(DESTDIR)$(DOCDIR)/LICENSE.Apache-2.0 $(DESTDIR)$(DOCDIR)/NOTICE
	rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(BASHCOMPDIR)/perfwatch $(DESTDIR)$(BASHCOMPDIR)/perfwatchd
	rm -f $(addprefix $(DESTDIR),$(SERVICE_FILES))

clean:
	rm -rf build build-asan build-fuzz build-clang build-harden

-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)
