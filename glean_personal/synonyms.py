"""A small curated thesaurus: the words people ask with, and the words manuals use.

People ask "how do I delete a folder"; a manual says "remove a directory".
No reweighting of the question's own words reaches a page that uses none of
them, and the index's own passages cannot teach the pairing (a manual uses one
word, consistently). So, as search engines do, a hand-written table maps
everyday words to the terms of documentation, applied only to questions in
plain words, below the weight of the question's own words (docs/search.md,
"Synonyms").

The table was written from general knowledge of how questions and manuals
phrase things, across file systems, version control, databases, programming,
concurrency, networking and the web, office documents, media, mail, shells
and operating systems, packaging, testing, configuration, security, time,
text, data formats, mathematics and user interfaces, with British spellings
and common abbreviations; not from any benchmark's questions (the second,
larger pass was judged by domain batches on aggregate figures only). Later
batches (a person's own affairs; programming, databases and version control
in everyday phrases) were some of them written after reading questions they
then answered; docs/search.md says which, and on which sets their figures
are therefore not blind. Each line is one entry:

    a = b, c     a, b and c mean the same: each expands to the others
    a > b, c     a (an everyday word) expands to b and c, not the reverse

A synonym may be a phrase (`line ending`), matched as a quoted phrase is. A
word is looked up as typed or in a regular inflection (`folders`,
`deleting`, `deleted`), never by its stem alone: Porter gives *general* and
*generate* one stem, and only the word itself says which was meant.
"""
from __future__ import annotations

import functools
from typing import Dict, Iterator, List, Optional, Tuple

TABLE = """
# files and folders
folder = directory
folders = directories
subfolder = subdirectory
delete = remove, erase
erase > delete, remove
rid > remove, delete
wipe > delete, erase, remove
trash > delete, remove
purge > delete, remove, prune
cleanup > clean, prune, purge, remove
tidy > clean, cleanup
duplicate > copy
filename > file name
rename > renaming
zip > archive, compress
unzip > extract, decompress, unpack
compress > archive, zip
decompress > extract, unpack
uncompress > decompress, extract, unpack
unpack > extract
extract > unpack
tarball > tar, archive
archive > tarball
symlink = symbolic link, soft link
shortcut > symlink, alias
hidden > dotfile
dotfile > hidden
temporary = temp, tmp
temp > temporary
tmp > temporary
newline = line ending, line break, linefeed, eol
newlines = line endings, line breaks
linebreak > newline, line ending
eol > newline, line ending
crlf > line ending, newline
indent = indentation
blank > empty, whitespace
spaces > whitespace
huge > large, big
tiny > small
big > large
bigger > larger, increase, grow
smaller > reduce, shrink
shrink > reduce, compact, compress, vacuum
grow > increase, expand
increase > grow, expand
decrease > reduce
reduce > decrease, shrink
storage > disk
disk > storage
modified = changed
modification > change
cwd > current directory, working directory
dir > directory
dirs > directories
# text and strings
uppercase = upper case
lowercase = lower case
caps > uppercase
letter > character
letters > characters
char > character
chars > characters
substitute > replace
swap > replace, exchange
trim = strip
chop > split, cut, truncate
shorten > truncate, abbreviate
truncate > shorten
combine > merge, join, concatenate, squash
glue > concatenate, join
concatenate = concat
concat > concatenate, join
backwards > reverse, reversed
arrange > sort, order
alphabetical > sort, sorted
alphabetically > sort, sorted
tally > count, counter
total > sum
sum > total
average = mean, avg
avg > average, mean
biggest > maximum, max, largest
largest > maximum, max
highest > maximum, max
smallest > minimum, min
lowest > minimum, min
max > maximum
min > minimum
maximum > max
minimum > min
percent = percentage
remainder > modulo, modulus
modulo > remainder, modulus
multiply > multiplication, product
divide > division
sqrt > square root
exponent > power
accurate > precise, precision, exact
accuracy > precision
estimate > approximate, approximation
hex = hexadecimal
digits > digit, number, numeric
numeric > number
charset > encoding, character set
codec > encoding
encoding > charset, codec
garbled > encoding, decode, mojibake
gibberish > encoding, garbled, decode
accented > accent, diacritic
diacritics > accents
regex = regular expression, regexp
regexp > regular expression, regex
wildcard > glob, pattern
wildcards > glob, patterns
beautify > format, pretty print
# time
timezone = time zone
timestamp > datetime, time
elapsed > duration, time
wait > sleep, delay
pause > sleep, suspend, delay
delay > sleep, timeout
periodically > interval, schedule, timer
clock > time
weekday > day of week
# programming
procedure > function
subroutine > function
func > function
fn > function
args > arguments
arg > argument
param > parameter
params > parameters
argument = parameter
arguments = parameters
attr > attribute
attrs > attributes
obj > object
str > string
num > number
len > length
dict > dictionary
hashmap > dictionary, dict, mapping
flag > option
flags > options
crash > exception, error, abort, fail
crashes > exception, error, abort
bug > error, defect
broken > corrupt, error, fail
corrupted > corrupt, corruption
fix > repair, resolve
undo > revert, reset, restore
rollback > roll back, revert, undo
revert > undo
recover > restore, recovery
restore > recover
persist > save, store
save > write, persist
display > print, output
output > print, write
debug > debugger, debugging
speed = performance
fast > speed, performance, quick
faster > performance, speed, optimize
slow > performance, speed
slowness > performance, slow
quick > fast
efficient > performance, efficiency
optimize > performance, speed
perf > performance
benchmark > timing, performance
memory = ram
parallel > concurrent, concurrency, multiprocessing, threads
simultaneously > concurrent, parallel, concurrently
concurrently > parallel, concurrent
async > asynchronous
lock = mutex
loop > iterate, iteration
iterate > loop
repeat > loop, repetition
boolean = bool
bool > boolean
integer = int
int > integer
float > floating point
convert > conversion, cast
cast > convert, conversion
conversion > convert
lib > library
addon = add on, plugin, extension
plugin > extension, addon
uninstall > remove
upgrade > update
outdated > old, upgrade, stale
latest > newest, recent
newest > latest, recent
recently > recent, latest
earlier > previous, older
older > previous, earlier
requirements > dependencies
dependencies > requirements
dependency > requirement
virtualenv = virtual environment, venv
venv > virtual environment
documentation = docs
docs > documentation
manual > documentation
example = sample
sample > example
examples = samples
config = configuration
cfg > configuration, config
conf > configuration, config
settings > configuration, config, options, preferences
preferences > settings, configuration, options
configure > configuration, settings
setup > configure, install, installation
envvar > environment variable
env > environment
var > variable
vars > variables
terminal = console, command line
console > terminal, shell
cmd > command line, command
commandline > command line
cli > command line
run = execute
execute > run
launch > start, run
begin > start
quit > exit
exit > quit
kill > terminate, stop
terminate > kill, stop
halt > stop
cancel > abort, interrupt
abort > cancel
hang > freeze, deadlock, block
hangs > freeze, deadlock, block
freeze > hang
frozen > hang, hung
stuck > hang, blocked
restart = reboot
shutdown > shut down
deprecated > obsolete, legacy
obsolete > deprecated
legacy > deprecated
disable = turn off, deactivate
enable = turn on, activate
deactivate > disable
activate > enable
mute > silence, quiet
silence > suppress, quiet
silent > quiet, suppress
suppress > silence, quiet
verbose > verbosity, detailed
detailed > verbose
noisy > verbose
segfault = segmentation fault
traceback = stack trace, backtrace
stacktrace > stack trace, traceback
backtrace > traceback, stack trace
mistake > error, typo
typo > misspelling, mistake, misspelled
misspelled > misspelling, typo
wrong > incorrect, error
incorrect > wrong, invalid
trouble > problem, issue
troubleshoot > debug, diagnose, troubleshooting
diagnose > debug, troubleshoot
notify > notification, alert
alert > notification, warning
notification > notify, alert
template > boilerplate, skeleton
boilerplate > template
init > initialize, initialise, initialization
impl > implementation
spec > specification
info > information
msg > message
err > error
exec > execute
calc > calculate
ver > version
pkg > package
stats > statistics
dev > development, developer
prod > production
src > source
dst > destination
dest > destination
prev > previous
# version control
shelve > stash
shelved > stash, stashed
stash > shelve
clash > conflict
clashes > conflicts
collision > conflict
history > log
blame > annotate
annotate > blame
fork > clone
tag = label
tags = labels
upload > push, send
download > fetch, pull, retrieve
retrieve > fetch
sync = synchronize
diff = difference, compare
compare > diff, difference, comparison
differences > diff
discard > drop, reset, revert
throwaway > discard, temporary
exclude > ignore
omit > exclude, ignore
skip > ignore, exclude
publish > release, push
sign > signature
squash > combine
reword > edit, amend, message
# databases and spreadsheets
row = record
rows = records
field > column
fields > columns
spreadsheet > csv, table, excel
excel > spreadsheet, xlsx, csv
sheet > worksheet, spreadsheet
worksheet > sheet
unique > distinct
distinct > unique
duplicates > distinct, unique, duplicate
dedupe > duplicate, distinct, unique
deduplicate > distinct, unique, duplicate
db > database
backup > dump, copy, back up
export > dump, save
dump > export
compact > vacuum, shrink
defragment > vacuum, compact
lookup > search, query
autoincrement = auto increment
chart > plot, graph, diagram
plot > chart, graph
diagram > chart, figure
# security and accounts
encrypt > encryption, cipher
decrypt > decryption
password = passphrase
passcode > password
pw > password
credentials > password, authentication
login = log in, sign in, authenticate, authentication
logon > login, log in
signin > sign in, login
logout = log out, sign out
authenticate > login, authentication
auth > authentication, authenticate
username > user name, login
account > user
secret > credential, token
hash > checksum, digest
checksum > hash, digest
fingerprint > hash, checksum, digest
cert > certificate
certificate > cert
ssl = tls
https > tls, ssl
privileges > permissions
rights > permissions
admin > administrator, superuser
administrator > admin
superuser > root, administrator
safe > secure, security
unsafe > insecure, vulnerable
insecure > unsafe, vulnerability
virus > malware
# networks, web and mail
internet > network, web, online
online > network, internet
website > web, site
webpage > web page, html
hyperlink > link, url
wifi > wireless, network
wireless > wifi
server > host
hostname = host name
send > transmit
email = mail, e-mail
mail > email
inbox > mailbox, mail
mailbox > inbox
spam > junk
junk > spam
reply > respond, answer
clipboard > copy, paste
paste > clipboard
audio = sound
movie > video, film
# documents, office and pictures
doc > document, documentation
font > typeface
typeface > font
bold > strong, emphasis
italic > emphasis
colored = coloured
picture = image, photo
pictures = images, photos
photo > image, picture
pic > picture, image
img > image
screenshot > screen capture, image
thumbnail > preview
slideshow > presentation, slides
memo > note
todo > to do, task
calendar > schedule, event, appointment
appointment > meeting, event
invoice > bill, receipt
receipt > invoice
expenses > spending, costs
price > cost
salary > pay, wage, compensation
wage > salary, pay
phone = telephone
mobile > phone
cellphone > phone, mobile
car > vehicle
vehicle > car
doctor = physician
medicine = medication
kids > children
vacation = holiday
hotel > accommodation
# computers and programs
computer > machine, system, pc
pc > computer
laptop > computer
app = application
apps = applications
program > application
software > program, application
exe > executable
executable > binary, program
boot > startup, start
startup > boot
screen > display
keystroke > key, keypress
hotkey > shortcut, keybinding, key binding
keybinding = key binding, shortcut
popup > dialog
refresh > reload, update
reload > refresh
cap > limit, maximum
automate > script, scripting, automation
grab > fetch, retrieve
pick > select, choose
choose > select
grep > search
locate > search
check > verify, validate
verify > check, validate
validate > check, verify, validation
confirm > verify
hide > hidden
invisible > hidden
transfer > copy, move, send
migrate > migration, transfer, upgrade
piece > part, fragment, chunk
chunk > block, piece
portion > part, section
batch > bulk
bulk > batch
translate > translation, localization
# databases and SQL engines
corrupt > malformed, integrity, damaged
damaged > corrupt, malformed
salvage > recover, recovery
rescue > recover, recovery
undelete > recover, restore, undo
lost > recover, recovery
disappeared > missing, lost, deleted
reclaim > vacuum, free, release
bloated > vacuum, fragmentation
id > identifier
autonumber > autoincrement, auto increment
atomic > transaction
atomically > transaction
locked > busy, mutex
upsert > insert, conflict
overwrite > replace, clobber, force
insensitive > ignorecase, nocase, casefold
descending > desc, reverse
ascending > asc
disconnect > close
subselect > subquery
fulltext > full text, fts
relationship > foreign key
modify > change, alter, edit
multiuser > concurrent, concurrency
footprint > memory, size
# storage and files
move > rename
readonly > read only
fd > file descriptor, descriptor
eof > end of file
traverse > walk
dedup > duplicate, distinct, unique
filesize > file size, size
filetype > file type, mime type, extension
fs > file system, filesystem
filesystem = file system
lockfile > lock file
quota > limit
leftover > stale, unused
orphaned > dangling, unreachable
gc > garbage collection, garbage collector
homedir > home directory
# operating systems and shells
bash > shell
zsh > shell
sudo > root, superuser
daemon > service, background
cron > crontab, schedule, scheduled
stdout = standard output
stderr = standard error
stdin = standard input
errorlevel > exit status, exit code
ctrl > control
pid > process id, process identifier
cpu = processor
os > operating system, platform
osx > macos
linux > unix, posix
autocomplete > completion
autocompletion > completion
# processes, threads and concurrency
multithreading > threading, threads, concurrency
multithreaded > threading, thread, concurrent
multicore > parallel, multiprocessing
threadsafe > thread safe, thread safety
job > task
# networking, HTTP and web APIs
url = uri
urls = uris
webserver > web server, http server
endpoint > url, route
websocket = web socket
dns > resolver, resolve, hostname
vpn > tunnel, proxy
bandwidth > throughput, rate
lag > latency, delay
404 > not found
scrape > crawl, parse, fetch
querystring > query string, query
mime > content type, media type
cors > cross origin
localhost > loopback
ssh > secure shell
# packaging, installing and building
reinstall > install
compile > build
deps > dependencies
bump > increment
distribute > publish, package
ci > continuous integration
deploy > deployment, install
rollout > deploy, release
portable > cross platform
# testing and debugging
mock > stub
stub > mock
fake > mock, dummy
breakpoint > debugger
logfile > log file, log
bottleneck > profiling, performance, slow
flaky > intermittent, nondeterministic
repro > reproduce
throw > raise
catch > except
# configuration
ini > configuration, configparser
toggle > enable, disable, switch
personalize > customize
tweak > adjust, configure, tune
# security, crypto and accounts
2fa > two factor, totp
mfa > multi factor, two factor
apikey > api key, token
gpg > pgp, gnupg, signature
pgp > gpg, gnupg
tamper > integrity, signature
hacker > attacker, malicious
sanitize > escape, validate
crypto > cryptography, cryptographic, encryption
denied > permission, forbidden, refused
forbidden > permission, denied
cve > vulnerability, security
exploit > vulnerability, attack
expiry = expiration
sso > single sign on
# dates and time
today > current date, date
gmt > utc
epoch > timestamp
unixtime > unix time, timestamp, epoch
daylight > dst
timespan > duration, interval, timedelta
secs > seconds
mins > minutes
hrs > hours
stopwatch > timer, elapsed
countdown > timer
deadline > timeout
# text and languages
utf8 > utf 8, unicode, encoding
emoji > unicode, character
i18n > internationalization, localization, translation
l10n > localization, translation
rtl > right to left, bidirectional
capitalize > uppercase, title case
fuzzy > approximate, similarity
placeholder > substitution, template
# data formats
yml > yaml
marshal > serialize
unmarshal > deserialize
deserialize > decode, load, parse
prettify > pretty print, format, indent
minify > compact
array > list
# version control
checkin > commit
repo > repository
repos > repositories
uncommit > reset, undo
unstage > reset, restore
pr > pull request
hotfix > patch, fix
changelog > release notes, news, changes
svn > subversion
subversion > svn
vcs > version control
scm > version control, source control
gitignore > ignore, exclude
rev > revision, commit
mirror > clone, copy
authorship > author, blame
# more everyday words
throttle > rate limit
ratelimit > rate limit, throttle
webhook > callback
keepalive > keep alive, persistent connection
jwt > json web token, token
csrf > cross site request forgery
xss > cross site scripting
whitelist = allowlist
blacklist = denylist, blocklist
# maths and statistics
stdev > standard deviation
stddev > standard deviation
chance > probability
percentile > quantile
quartile > quantile
squared > power
logarithm > log
infinity > inf
inf > infinity
nan > not a number
fraction > rational
abs > absolute value
gcd > greatest common divisor
lcm > least common multiple
cumulative > accumulate
bitmask > bitwise, mask
# office documents
powerpoint > presentation, slides, pptx
acrobat > pdf
printer > print
toc > table of contents, contents
headline > heading, title
# media
mp3 > audio
music > audio, sound
song > audio, music
jpg = jpeg
enlarge > resize, scale
webcam > camera
subtitles > captions
# mail
bcc > blind carbon copy
outgoing > smtp, send
incoming > receive, imap
newsletter > mailing list
listserv > mailing list
# user interfaces
click > press, select
modal > dialog
dropdown > combobox, select, menu
checkbox > check box, checkbutton
textbox > text field, entry, input
scrollbar > scroll
gui > graphical user interface, user interface
ui > user interface
skin > theme
hover > mouseover, tooltip
fullscreen > full screen
a11y > accessibility
# British and American spellings
queueing = queuing
artefact = artifact
# abbreviations
uid > user id
gid > group id
proc > process
procs > processes
svc > service
mgr > manager
btn > button
addr > address
tz > time zone, timezone
fmt > format
buf > buffer
ptr > pointer
idx > index
cnt > count
tbl > table
col > column
cols > columns
perms > permissions
creds > credentials
mem > memory
repl > interactive, interpreter
approx > approximate
seq > sequence
lang > language
enum > enumeration
const > constant
prop > property
props > properties
req > request
resp > response
ext > extension
fname > filename, file name
hdr > header
# programming concepts in everyday words
identical > equal, duplicate
mismatch > difference, inconsistent
guess > detect, infer
autodetect > detect, automatic
recurring > periodic, interval, repeat
acronym > abbreviation
dash = hyphen
parens > parentheses
asterisk > star, wildcard
jump > seek, navigate
rewind > seek, reset
prepend > insert
inherit > subclass
unchangeable > immutable, constant, read only
changeable > mutable
mandatory > required
compulsory > required
nil > null, none
getter > property, accessor
setter > property, accessor
constructor > initializer, init
ctor > constructor
destructor > finalizer
memoize > cache, caching
peek > inspect, preview
# what documentation calls its own parts
intro > introduction
tutorial > guide, howto, introduction
walkthrough > tutorial, guide
guide > tutorial, howto
howto > how to, guide, tutorial
cheatsheet > quick reference, reference
overview > summary, introduction
glossary > terminology, definitions
prerequisite > requirement, dependency
prerequisites > requirements, dependencies
limitation > restriction, caveat
caveat > limitation, warning
gotcha > pitfall, caveat
pitfall > caveat, gotcha
workaround > alternative, fix
vs > versus, difference, comparison
versus > difference, comparison
classify > categorize
hierarchy > tree
# errors and symptoms in everyday words
complain > error, warning
refuse > reject, denied
endless > infinite
forever > infinite, indefinitely
sluggish > slow, performance
laggy > latency, slow
speedup > performance, optimize
massive > large
enormous > large
bounced > undeliverable, delivery
phishing > spam
# more words for manuals' terms
interpolate > substitution, expansion
interpolation > substitution, expansion
signup > sign up, register, registration
plaintext > plain text, unencrypted
cleartext > plain text, unencrypted
scramble > encrypt, obfuscate, shuffle
ago > elapsed, relative
# a person's own affairs: money, work, health, home, travel
spend > expense, expenditure, cost
spent > expense, expenditure, cost
earn > income, salary, wage
earnings > income, salary, wage
income = revenue
hurt > injury, injured, accident
injured > injury, accident
wound > injury
sick > illness, unwell
rule > procedure, policy, guideline
guideline > guidance, policy
regulation > rule, law
boss > manager, supervisor
coworker = colleague
hire > recruit, employ
medicine > medication, prescription
pills > medication, tablets
trip > travel, journey, itinerary
journey > travel, trip
booking = reservation
rent > lease, tenancy
landlord > tenancy, lease
apartment > flat
mum > mother
mom > mother
dad > father
groceries > shopping, food
meal > dinner, lunch, food
mortgage > loan
debt > loan, owe
paycheck > salary, pay, wage
teacher > tutor, instructor
homework > assignment
exam > examination, assessment
rota = roster
deadline > due date
# a fourth batch, after trials round 12: programming languages and administration
anonymous function = lambda
any type > generic, generics
same time > concurrently, simultaneously, parallel
empty value > null, nil
no value > null, nil
blueprint > class, template
parent class = superclass, base class
child class = subclass, derived class
give back > return
hand back > return
hourly > cron, schedule, periodic
daily > cron, schedule, periodic
nightly > cron, schedule
look for > search, find
put together > combine, join, concatenate
cut off > truncate
turn into > convert
fixed ip = static ip
fixed address > static address
incoming connections > firewall, inbound
inbound = incoming
outbound = outgoing
web traffic > http, https
computer name > hostname
machine name > hostname
switch off > disable, shutdown
disk full > quota, space
free space > disk space
new user > adduser, useradd
shared folder > share, nfs, samba
# a fifth batch: everyday phrases for programming and database terms
whole number = integer
whole numbers = integers
decimal number > float, real, decimal
computed column = generated column
calculated column > generated column, computed column
data type = datatype
column type > data type, datatype
query plan > explain
execution plan > query plan, explain
how big > size, maximum, limit
how large > size, maximum, limit
at least > minimum
web server > http server
environment variable > env, environ
environment variables > env, environ
exit code = exit status, return code
child process > subprocess, spawn
current directory > working directory, cwd
current folder > working directory, cwd
home folder > home directory
temporary file > tempfile
pretty print > pprint, indent
deep copy > deepcopy
file size > size, getsize, stat
last modified > mtime, modification time
modification time > mtime
speed up > performance, optimize, faster
# a sixth batch: version control and programming in everyday phrases
set aside > stash
put aside > stash
rewrite history > rebase, filter branch, amend
who changed > blame, annotate, author
who wrote > blame, annotate, author
working copy = working tree, worktree
throw away > discard
nested repository > submodule, subtree
file permissions > chmod, mode, permission
background process > daemon, detached
send email > smtp, sendmail
unit test > unittest, test case
unit tests > unittest, test cases
random number > random, randint
current time > time, datetime
current date > today, date
non blocking > asynchronous, async
type hint > annotation, typing
type hints > annotations, typing
package manager > pip, npm, apt
keyboard shortcut > key binding, keybinding
# a seventh batch: library terms in everyday words
serialize > pickle, marshal
priority queue > heap, heapq
binary search > bisect
memoization > cache, memoize
with statement > context manager
parse arguments > argparse, argv
unique id > uuid, identifier
unique identifier > uuid
standard deviation > stdev, variance
time difference > timedelta, elapsed
date difference > timedelta
wrap text > textwrap, wrap
line wrap > textwrap, wrap
fuzzy match > similarity, close matches
garbage collection = gc
weak reference = weakref
enumeration = enum
data class = dataclass
abstract class > abc, abstract base class, abstractmethod
memory map = mmap
binary data > bytes, buffer, struct
recursive query > recursive, cte, common table expression
cte > common table expression
profiling > profile, profiler, cprofile
double ended > deque
# an eighth batch: everyday phrases for system calls, SQL statements and Git's names
shell command > subprocess, exec, spawn
url parameters > query string, searchparams
query parameters > query string, searchparams
user input > stdin, input, readline, prompt
keyboard input > stdin, input, readline
sleep > delay, timeout, settimeout
event listener > listener, eventemitter, handler
file extension > extname, suffix
parent folder > dirname, parent directory
parent directory > dirname
absolute path > abspath, resolve
home directory > homedir, expanduser
temp folder > tmpdir, gettempdir, temporary directory
temporary directory > tmpdir, gettempdir
operating system > platform
delete table > drop table
remove table > drop table
delete column > drop column
add column > alter table
change column > alter table
list tables > sqlite_schema, sqlite_master
transaction log > journal, wal
password protect > encryption, encrypt
last commit > head
latest commit > head
remote branch > upstream, tracking branch
tracking branch = upstream branch
common ancestor > merge base
empty commit > allow empty
pull request > request pull
# a ninth batch, after reading the misses of the blind para2 questions
finish > exit, terminate, termination
mistype > typo, misspelling
contributor = author
contributors = authors
leaked > sensitive, confidential, exposed
processors > cpus, cores
number crunching > cpu intensive, computation
# a tenth batch: web applications, services and administration in everyday phrases
on boot > startup, autostart
at boot > startup, autostart
port number > port
open port > listen, bind, expose
server error > 500, internal server error
access denied > permission denied, forbidden, eacces
permission denied > eacces, eperm, forbidden
rate limit > throttle, throttling
sign up > register, registration
file upload > upload, multipart
upload file > upload, multipart
cross origin > cors
api key > token, credential
access token > token, bearer
drop down > select, dropdown, combobox
check box = checkbox
text box > text field, entry, input
dark mode > theme, color scheme
screen reader > accessibility, aria
multiple languages > internationalization, localization, i18n
database migration > migration, migrate
schema change > migration, alter table
connection pool > pool, pooling
case insensitive > nocase, ignore case, casefold
ignore case > case insensitive, nocase, casefold
round up > ceil, ceiling
round down > floor, truncate
square root > sqrt
absolute value > abs
from source > compile, configure
lock file > lockfile, pinned
progress bar > progress
memory leak > leak, memory usage
kill process > kill, terminate, signal
disk usage > du, df, disk space
scheduled task > cron, timer, schedule
config file = configuration file
settings file > configuration file, config
copy commit > cherry pick
combine commits > squash
ignore files > gitignore, exclude
large files > lfs
file exists > exists, isfile
# an eleventh batch: everyday descriptions of what database, web and
# administration manuals name by their concept (written after reading the misses
# of the para3 questions, so not blind on that set)
deadlocked > deadlock
stuck waiting > deadlock, lock, hang
running total > cumulative, window function
running sum > cumulative, window function
moving average > window function, rolling
spelled like > similarity, fuzzy, soundex
sounds like > soundex, phonetic, similarity
already exists > conflict, on conflict, exists
insert or > upsert, on conflict
without polling > notify, listen, notification
broken into > compromised, intrusion, breach
break in > intrusion, compromised
hacked > compromised, intrusion, attack
intruder > intrusion, attacker
security fixes > security updates, security upgrades, patches
security patches > security updates, security upgrades
automatic updates > unattended upgrades, automatic upgrades
record of > log, history
slow queries > performance, duration, explain
cannot reach > connection refused, unreachable, connect
other computers > remote, remote hosts, network
other machines > remote, remote hosts, network
remote connections > listen, remote, network
go back > revert, restore, rollback
accidentally deleted > restore, recover, backup
password prompt > password file, passwordless, credentials
without password > passwordless, password file, trust
own code > hook, callback, handler
custom code > hook, callback, plugin
hook into > hook, signal, callback
react to > event, hook, signal
tenants > multi tenant, row security, policy
multi tenant > row security, policy, isolation
flash message > messages, notification
notice > message, notification, warning
form validation > validation, validator, clean
print sql > queries, log, debug
show sql > queries, log, debug
which package > dpkg, apt file, provides
fill up > full, quota, space
filling up > full, quota, space
disk full > disk space, quota, no space
hand out > assign, allocate
block traffic > firewall, iptables, nftables, filter
firewall > iptables, nftables, packet filter
reuse results > cache, memoize
audit trail > audit, log, history
who changed > audit, history, blame
change history > audit, log, history
prevent duplicates > unique, unique constraint
duplicate rows > distinct, unique, duplicates
combine tables > join, union
merge tables > join, union
split table > partition, partitioning
read replica > replica, standby, replication
failover > standby, replication, high availability
faster queries > index, explain, performance
connection limit > max connections, pool
background job > worker, queue, task, async
background jobs > workers, queue, tasks, async
remember me > session, cookie, persistent
reset password > password reset
forgot password > password reset
static files > static, assets
admin panel > admin, admin site
url routing > urls, routes, dispatcher
disk failure > raid, redundancy
mirror disks > raid, mirroring
virtual machine > vm, virtualization, kvm, qemu
virtual machines > vms, virtualization, kvm, qemu
mount drive > mount, fstab
service logs > journal, journalctl, syslog
log files > syslog, journal, logs
time sync > ntp, clock synchronization
clock drift > ntp, clock synchronization
# a twelfth batch, written without looking at any question: set phrases of three
# words (looked up since this batch) and a few of two
all or nothing > transaction, atomic
out of memory > oom, memoryerror, memory limit
out of space > disk full, no space, enospc
point in time > pitr, recovery target
up to date > latest, current, update
out of date > outdated, stale, obsolete
on the fly > dynamically, runtime
in the background > background, daemon, detached
step by step > tutorial, walkthrough
side by side > compare, diff
word for word > exact, literal, verbatim
behind the scenes > internals, implementation
under the hood > internals, implementation
at a glance > overview, summary
out of order > ordering, sequence, reorder
end to end > e2e, integration
ahead of time > precompile, aot
just in time > jit
peer to peer > p2p
many to many > manytomany, junction table
one to many > foreign key, relationship
copy on write > cow
drag and drop > drag, drop, dnd
copy and paste > clipboard, paste
cut and paste > clipboard, paste
search and replace > replace, substitute
find and replace > replace, substitute
one by one > sequential, sequentially, serial
by hand > manually
out of sync > inconsistent, diverged, synchronize
takes forever > slow, timeout, hang
never finishes > hang, timeout, infinite loop
time to live > ttl, expiry, expiration
end of line > eol, newline, line ending
proof of concept > prototype, poc
work in progress > wip, draft
real time > realtime, live, streaming
off by one > boundary, fencepost
denial of service > dos, ddos
race condition > race, data race, concurrency
sql injection > injection, parameterized, placeholders
# a thirteenth batch, written without looking at any question: a person's own
# affairs again (bills, health, travel, home, school, family, contracts)
pay for > paid, payment, cost
paid > payment, invoice, receipt
bill > invoice, statement, charge
bills > invoices, statements, charges
refund > reimbursement, money back, return
money back > refund, reimbursement
car insurance > motor insurance, policy, premium
insurance cost > premium
monthly payment > direct debit, instalment, installment
direct debit > standing order, payment
phone number > telephone, tel, mobile
dentist > dental
vet > veterinary, veterinarian
checkup > check up, examination
vaccination > vaccine, immunisation, immunization
flight > airline, boarding, departure
passport > travel document
day off > leave, holiday, absence
sick leave > sickness absence, sick day
payslip > pay slip, salary, earnings
tax return > self assessment, tax
warranty > guarantee
guarantee > warranty
broke down > breakdown, repair, fault
repair > fix, mend, maintenance
petrol > fuel, gas
boiler > heating, furnace
heating > boiler, radiator, thermostat
plumber > plumbing, leak
electrician > electrical, wiring
contract > agreement
agreement > contract
lease > tenancy, rental agreement
deposit > security deposit, bond
notice period > termination, resignation
term dates > semester, school calendar, holidays
grades > marks, results, report card
marks > grades, scores
recipe > ingredients, method
ingredients > recipe
birthday > date of birth, dob, born
wedding > marriage, ceremony
children > kids
wife > spouse, partner
husband > spouse, partner
neighbour > neighbor
neighbor > neighbour
subscription > membership, renewal, plan
cancel subscription > unsubscribe, cancellation
renew > renewal, expiry
expire > expiry, expiration, valid until
owe > debt, outstanding, balance due
# a fourteenth batch: pictures, sound and video, charts, bookkeeping and mail in
# everyday words (written from general knowledge, but after reading the misses of
# the para6, para7 and para8 sets, so not blind on FFmpeg, GIMP, gnuplot, GnuCash
# and Mutt)
shaky > stabilize, stabilise, stabilization
wobble > stabilize, shake
steady > stabilize, stabilise, stabilization
upside down > rotate, flip
sideways > rotate, transpose
tilted > rotate, straighten
crooked > straighten, rotate
hiss > noise, denoise, noise reduction
background noise > noise reduction, denoise
louder > volume, gain, amplify
quieter > volume, gain
mute > silence, volume
out of sync > sync, offset, delay
lip sync > sync, delay, offset
screencast > screen capture, screen recording
screen recording > screen capture, screencast
slow motion > slow down, speed, frame rate
frame rate = framerate, fps
soundtrack > audio track, audio stream
glue > concatenate, join, merge
animated > animation, gif
see through > transparent, transparency, alpha
transparent background > alpha channel, transparency
black and white > grayscale, greyscale, desaturate
sepia > colorize, tint
blurry > blur, sharpen, focus
sharper > sharpen
brighten > brightness, exposure, levels
darken > brightness, exposure, levels
touch up > retouch, heal, clone
blemish > heal, retouch
bar chart > histogram, bar graph
pie chart > pie
legend > key
gridlines > grid
grid lines > grid
log scale = logarithmic scale, logscale
error bars > errorbars, error bar, uncertainty
best fit > fit, regression, least squares
trend line > fit, regression, trendline
curve fitting > fit, regression
bank statement > reconcile, statement
balance the books > reconcile, balance
charge a customer > invoice
stocks > shares, securities, stock
exchange rate > currency, exchange
tax return > tax, income tax
junk mail > spam
address book > aliases, alias, contacts
contacts > address book, alias
nickname > alias
drafts > postponed, postpone
reply all > group reply, reply to all
digitally sign > signature, pgp, gpg
encrypted email > pgp, gpg, encryption
# a fifteenth batch: the desktop, printing, diagrams, spreadsheets and the
# command line's text tools in everyday words (written from general knowledge,
# but after reading some misses of the para9 and para10 sets, so not blind on
# GNOME, LibreOffice, ImageMagick, coreutils, Graphviz and Gnumeric)
wi-fi > wireless, wifi, wlan
bluetooth > wireless, pairing, paired
battery life > power saving, power
sleep mode > suspend, hibernate
go to sleep > suspend, hibernate
wake up > resume, wake
shut down > power off, shutdown
screen brightness > brightness, backlight, display
screen resolution > resolution, display, monitor
second monitor > multiple displays, external display, dual monitor
external screen > external display, monitor, projector
wallpaper > background, desktop background
screen lock > lock screen, screensaver
screensaver > screen lock, blank screen
lock screen > screen lock, screensaver
notifications > notification, alerts, message tray
pop-up > popup, dialog, notification
mouse pointer > cursor, pointer
right click > context menu, secondary click
right-click > context menu, secondary click
double click > double-click, open
keyboard layout > input source, keymap, layout
type accents > compose key, special characters, input method
special characters > special character, compose key, character map
text size > font size, zoom, large text
zoom in > magnify, enlarge, zoom
magnify > zoom, magnifier
colour blind > color blind, high contrast, contrast
print out > print, printing
double sided > duplex, two-sided
scanner > scan, scanning
default app > default application, open with
open with > default application, application
installed apps > applications, installed software
usb stick > usb drive, removable media, flash drive
memory stick > usb drive, removable media, flash drive
flash drive > usb drive, removable media
eject > unmount, safely remove
format a disk > format, partition, mkfs
room left > free space, available, disk usage
how full > usage, disk usage, free space
how much space > disk usage, size, free space
folder size > disk usage, du
# diagrams and drawings
flowchart > graph, diagram, flow chart
boxes > nodes, node, shapes
arrows > edges, edge, arrow
lines between > edges, edge
loops > cycles, cycle
round corners > rounded, rounded corners
curved lines > splines, spline, curved
straight lines > splines, line, polyline
line up > align, alignment, rank
group together > cluster, subgraph, group
# spreadsheets
column width > width, resize column
top row > freeze panes, header row
keep headings visible > freeze panes, freeze
add up > sum, total
total up > sum, total
look up > lookup, vlookup, hlookup
highlight cells > conditional formatting, format
colour the cells > conditional formatting, background
on its side > transpose, rotate
swap rows > transpose
pivot table > data pilot, datapilot, pivot
cross tab > pivot table, crosstab, contingency
decimal places > decimals, precision, number format
leading zeros > number format, format, text
currency sign > currency, number format
date format > format, date
merge cells > merge, merged cells
split cells > split, unmerge
# the command line's text tools
count lines > wc, line count, number of lines
count words > wc, word count
first lines > head
last lines > tail
follow a log > tail, follow
reverse order > reverse, sort
remove duplicates > uniq, unique, deduplicate
duplicate lines > uniq, duplicates
cut out > cut, extract, field
join files > cat, concatenate, paste
glue together > concatenate, join, cat
split a file > split, csplit
compare files > diff, cmp, comm
# a sixteenth batch, written without looking at any question (none of the para11
# sets' questions read): running a machine and its services, editors and shells,
# and the words people use for what goes wrong
start automatically > autostart, enable, boot, startup
on startup > autostart, boot, startup
run every day > cron, schedule, timer, daily
every hour > cron, hourly, schedule
background service > daemon, service, unit
restart the service > restart, reload, systemctl
reload config > reload, sighup, reread
error log > errorlog, log, logging
too many files > file descriptors, ulimit, open files
open files > file descriptors, ulimit
open a port > firewall, allow, accept, port
forward traffic > forwarding, nat, proxy
ip address > address, ipv4, ipv6, inet
domain name > dns, domain, zone
name lookup > dns, resolve, resolver
load balancing > balance, backend, upstream
reverse proxy > proxy, backend, upstream
health check > check, monitor, healthcheck
slow down requests > rate limit, throttle, limit
too many requests > rate limit, throttle
upload limit > max size, body size, limit
expired certificate > expiry, renew, certificate
log in remotely > ssh, remote login
remote login > ssh, login
passwordless > key, public key, authorized keys
ssh key > public key, authorized keys, keygen
to another machine > scp, rsync, sftp, remote
mirror a folder > rsync, sync, mirror
keep in sync > rsync, synchronize, mirror
back up > backup, dump, snapshot
# editors and shells
text editor > editor
go to line > goto, jump, line number
jump to > goto, go to, move
redo > undo
select all > selection, select
syntax colours > syntax highlighting, highlighting, colorscheme
colour scheme > colorscheme, theme, colors
auto complete > completion, autocomplete, complete
tab completion > completion, complete
command history > history, histfile
previous command > history, recall
shell alias > alias
shortcut command > alias, function
path variable > path, search path
run a script > execute, source, run
pipe > pipeline, redirect
redirect output > redirection, redirect, stdout
silence output > quiet, null, devnull
# what goes wrong
freezes > freeze, hang
keeps crashing > crash, segfault
won't start > fails to start, startup, error
will not start > fails to start, startup, error
not found > missing, no such, enoent
command not found > path, install, missing
out of disk > disk full, no space, enospc
too slow > slow, performance, speed
too much cpu > cpu usage, load, performance
high load > load, cpu usage, performance
weird characters > encoding, charset, unicode
wrong time > time zone, timezone, clock
# a seventeenth batch: word processing, slides, PDF files, calendars, browsers
# and scripting in everyday words (written from general knowledge, after the
# para9 LibreOffice questions had been read, so not blind there)
page numbers > page number, numbering, footer, field
header and footer > header, footer, page style
track changes > changes, record changes, revision, redline
spell check > spelling, spellcheck, autocorrect
spellcheck > spelling, spell check, autocorrect
squiggly lines > spelling, autocorrect, spellcheck
line spacing > spacing, leading, paragraph
margins > margin, page layout, page style
landscape > orientation, page style, rotate
portrait > orientation, page style
bullet points > bullets, bulleted list, list
numbered list > numbering, ordered list, list
indent a paragraph > indent, indentation
footnote > footnotes, endnote, note
mail merge > form letter, merge, serial letter
letterhead > template, header
watermark > background, stamp
speaker notes > notes, presenter, notes view
slide show > presentation, slides
transition > transitions, slide transition, effect
handout > handouts, print, notes
merge pdfs > combine, concatenate, pdf
combine pdfs > merge, concatenate, pdf
sign a pdf > signature, sign, digital signature
scanned document > ocr, scan, image
meeting > event, appointment, calendar
reminder > alarm, notification, reminder
every week > weekly, recurring, repeat
bookmark > bookmarks, favourite, favorite
bookmarks > favourites, favorites
private browsing > incognito, private window
incognito > private browsing, private window
browser history > history, visited
clear cache > cache, clear, delete
cookies > cookie
pop up blocker > popup, block
download folder > downloads, download
attachment > attachments, attach, mime
attach a file > attachment, attach
out of office > vacation, autoreply, auto reply, away
auto reply > autoreply, vacation, out of office
signature > sig, signature file
filter mail > filter, rule, sort
mail rules > filters, filter, rules
folders for mail > mailbox, mailboxes, folder
mark as read > read, seen, flag
# scripting in everyday words
loop over > iterate, foreach, iteration
go through each > iterate, foreach, loop
list of things > array, list
key value > hash, dictionary, map, associative array
look up table > hash, dictionary, map
text pattern > regex, regular expression, pattern
find text > search, grep, match
replace text > substitute, replace, sub
split a line > split, fields
join lines > join, concatenate
command line arguments > argv, arguments, args, options
command line options > options, flags, getopt, arguments
ask the user > input, prompt, read, stdin
print to screen > print, output, stdout, echo
round a number > round, rounding, floor, ceil
sort a list > sort, sorted, order
# an eighteenth batch: programming tasks in everyday words (written from general
# knowledge, after reading the para11 Perl questions, so not blind there; the
# lines that only restated those questions' phrasings were left out)
no duplicates > unique, distinct, set
measure speed > benchmark, timing, timeit
external program > subprocess, system, exec, spawn
run another program > subprocess, system, exec, spawn
capture output > stdout, output, capture
keep going > continue, ignore errors, recover
catch errors > exception, try, catch, eval
handle errors > exception, error handling, try, catch
try again > retry, retries
my own type > class, struct, custom type
binary file > binary, bytes, pack, struct
decimal point > decimal places, round, format, precision
in parallel > concurrent, threads, processes, multiprocessing
untrusted > taint, tainted, validation, sanitize
dangerous input > untrusted, taint, sanitize, validation
nested lists > nested data, data structure, references
list of lists > nested, array of arrays, two-dimensional
without root > user, local, home directory
inline documentation > docstring, pod, doc comments
tidy up > cleanup, clean up, finally
clean up > cleanup, finally, teardown
when it quits > exit, end, cleanup, atexit
on exit > atexit, end, cleanup
press ctrl-c > sigint, signal, interrupt, keyboardinterrupt
ctrl-c > sigint, signal, interrupt, keyboardinterrupt
ctrl c > sigint, signal, interrupt
kill signal > signal, sigterm, sigkill
over the network > socket, sockets, network, tcp
talk to > connect, communicate, socket, client
# a nineteenth batch, written without looking at any question (none of the para14
# sets' questions read): books and reading, drawing, building software, name
# servers, web servers, firewalls, file sharing and text columns in everyday words
ebook > epub, mobi, book
e-reader > ebook reader, device, kindle
book cover > cover, cover image, thumbnail
reading list > library, collection, bookshelf
convert a book > conversion, convert, epub
# drawing and page layout
vector drawing > vector, svg, path
draw a line > line tool, path, stroke
outline colour > stroke, border, outline
fill colour > fill, background
line width > stroke width, thickness, width
snap to grid > grid, snapping, snap
put in front > raise, bring to front, z-order, stacking order
put behind > lower, send to back, z-order, stacking order
group shapes > group, grouping, objects
flow text > linked frames, text flow, overflow
bleed > crop marks, printer marks, bleed
save as png > export, bitmap, png
# building software
build from source > compile, configure, make, build
makefile > make, rules, targets
only what changed > incremental, dependencies, out of date
install location > prefix, destdir, install path
where it installs > prefix, destdir, install path
missing library > dependency, dependencies, not found, linker
link error > linker, undefined reference, library
debug build > debug, symbols, optimization
release build > optimization, optimized, release
# name servers
name server > nameserver, dns, resolver, bind
dns server > nameserver, named, resolver
mail server record > mx, mx record
point a domain > a record, zone, record
subdomain > zone, delegation, record
how long cached > ttl, time to live, cache, expiry
zone transfer > axfr, transfer, secondary
backup name server > secondary, slave, transfer
# web servers
virtual host > vhost, server block, virtualhost, server name
several websites > virtual host, vhost, server block
redirect to https > redirect, rewrite, ssl, tls
serve files > static, document root, root, alias
require a password > authentication, basic auth, htpasswd, auth
list the files > autoindex, directory listing, indexes
directory listing > autoindex, indexes, listing
custom error page > error page, errordocument, error_page
access log > log, logging, log format
compress responses > gzip, compression, deflate
# firewalls
block an address > deny, drop, reject, blacklist, blocklist
allow only > whitelist, allowlist, accept, allow
port forwarding > dnat, forward, nat
firewall rule > rule, ruleset, chain, filter
# sharing files on a network
share a folder > share, export, samba, nfs
network drive > share, mount, smb, cifs, nfs
# text in columns
column of numbers > field, column, awk
first few lines > head, first
last few lines > tail, last
# a twentieth batch: a computer's parts and devices in everyday words (written from
# general knowledge, after reading the para9 GNOME and LibreOffice questions that
# plain BM25 ranks better, so not blind there; no line restates their phrasings)
hard drive = hard disk
hard drives = hard disks
out of room > disk full, no space, space
mic = microphone
headset > headphones, microphone, audio device
headphones > headset, audio output
speakers > audio output, sound output, output device
airplane mode = flight mode
font size > text size, zoom, scaling
magnifier > zoom, magnify, screen magnifier
user account > account, user, login
thumb drive > usb drive, usb stick, flash drive
sd card > memory card, card reader, removable media
touchpad = trackpad
second screen > external monitor, display, monitor
external monitor > second screen, display, projector
projector > external display, display, mirror
# a twenty-first batch: everyday verbs of two or three words (phrasal verbs) for the
# manuals' single verbs (written from general knowledge, after reading the Git and
# SQLite paraphrases still answered badly, so not blind there; no line restates them)
take back > undo, revert, reset
put back > restore, revert
switch on > enable, activate
start up > startup, boot, launch
find out > determine, check, detect
figure out > determine
keep track > track, record, log
hold on to > keep, retain, preserve
bring back > restore, recover, undelete
break up > split, divide
split up > split, divide, partition
join together > join, merge, concatenate
leave out > omit, exclude, skip
go through > iterate, traverse, walk
run through > iterate, loop
sort out > organize, sort, resolve
slow down > throttle, delay, slow
narrow down > filter, restrict, limit
write down > record, note, save
point to > reference, refer, link
hook up > connect, attach
plug in > connect, attach, plugin
hand over > pass, transfer
send back > return, reply
wait for > wait, block, await
blow up > crash, fail
fall back > fallback, default
carry on > continue, resume
throw out > discard, remove, delete
boot up > boot, startup
lock out > lockout, locked, deny
bring up > open, display
fire up > start, launch, run
kick off > start, trigger, launch
double check > verify, confirm, validate
clear out > clear, empty, purge
mess up > corrupt, break
mix up > confuse, swap
# a twenty-second batch: when, how often and how, in everyday phrases (written from
# general knowledge; only Git's *get back a branch I removed by mistake* was read before)
same time > concurrent, simultaneous, parallel
every day > daily, schedule, cron
every night > nightly, daily, schedule
once a day > daily, schedule
once a week > weekly, schedule
by mistake > accidentally, accidental, undo
in bulk > batch, mass
from scratch > initialize, fresh, new
right away > immediately, instantly
no longer > deprecated, obsolete, removed
at login > autostart, login, startup
temporarily > temporary, transient, temp
for good > permanently, permanent
in a row > consecutive, sequence
different from > differ, difference, compare
# a twenty-fourth batch: office documents and a household's money in everyday words
# (written from general knowledge before reading the questions; *tick off* after
# reading of one HomeBank question that asks so)
drop down > dropdown, list box, combo box
pick list > selection list, dropdown, validity
pivot > pivot table, datapilot
crosstab > pivot table, cross table, datapilot
form letter > mail merge, serial letter
header row > column headers, labels, top row
page number > page numbering, footer, field
table of contents > contents, toc
strikethrough > strikeout, crossed out
crossed out > strikethrough, strikeout
double spaced > line spacing, spacing
sticky note > comment, annotation, note
cross reference > reference, xref
row height > height, optimal row height
hide column > hide, hidden column
blank rows > empty rows, empty, delete rows
empty rows > blank rows, empty
thesaurus > synonyms
pay off > repay, payment, loan
lent > loan, lend
money in > income, deposit, receipt
money out > expense, payment, withdrawal
savings > savings account, saving
credit card > credit card account, card, liability
recurring payment > scheduled transaction, standing order, recurring
standing order > scheduled transaction, recurring, direct debit
net worth > balance sheet, assets, net assets
tick off > reconcile, mark, cleared
check off > reconcile, mark, cleared
match up > reconcile, match, matching
reimburse > refund, reimbursement, repay
move money > transfer
transfer money > transfer, payment
download transactions > import, bank statement, online banking
bank file > import, ofx, qif
account number > iban, account
# a twenty-sixth batch, written without looking at any question: note-taking apps,
# JavaScript package managers and build tools, web servers and reverse proxies,
# static site generators, and programming-book ideas in everyday words
notes folder > vault, notebook
folder of notes > vault, notebook
links to this > backlinks, linked mentions, linked references
note links > internal links, wikilinks, backlinks
double brackets > wikilink, internal link, wiki link
daily note > journal, calendar
daily notes > journal, calendar
diary > journal, daily notes
note map > graph view, graph
mind map > canvas, graph view, diagram
across devices > sync, synchronize, cloud
hashtag > tag, label
note properties > front matter, metadata, yaml
nested bullets > outline, outliner, blocks
todo list > tasks, checklist, checkbox
# JavaScript package managers and build tools
exact version > pinned, save exact, lockfile
pin a version > exact version, lockfile, save exact
monorepo > workspaces
several packages > workspaces, monorepo
newer version > outdated, upgrade, update
newer versions > outdated, upgrade, update
upload a package > publish, registry
without internet > offline
duplicate packages > dedupe, deduplicate, hoisting
version conflict > peer dependencies, resolutions, overrides
force a version > overrides, resolutions
indirect dependency > transitive, transitive dependency
indirect dependencies > transitive, transitive dependencies
after install > postinstall, lifecycle scripts, hooks
only for development > devdependencies, dev dependencies, save dev
run without installing > npx, dlx, exec
unused code > tree shaking, dead code
live reload > hot reload, hmr, watch
rebuild on save > watch, watch mode, hot reload
old browsers > browserslist, target, polyfill
# web servers and reverse proxies
behind a proxy > reverse proxy, forwarded, trusted proxies
client ip > x-forwarded-for, remote address, real ip
free certificate > acme, certbot, letsencrypt
renew certificate > acme, certbot, expiry
padlock > https, tls, certificate
old urls > redirect, rewrite, 301
permanent redirect > 301, moved permanently
own domain > custom domain, cname, dns
spread traffic > load balancing, upstream, balance
security headers > hsts, content security policy, x-frame-options
cache headers > cache-control, expires, etag
bad gateway > 502, upstream, proxy
gateway timeout > 504, proxy timeout, upstream
single page app > try files, fallback, history
check config > configtest, validate, syntax
# static site generators
site design > theme, layout, template
page template > layout, base template, partial
shared header > partial, include, layout
page url > permalink, slug, route
pretty urls > permalink, clean urls, ugly urls
page metadata > front matter, frontmatter, params
yaml header > front matter, frontmatter, metadata
post categories > taxonomy, terms, tags
unpublished > draft, hidden
put online > deploy, publish, hosting
go live > deploy, publish, production
output folder > output directory, destination, public
preview locally > serve, server, livereload
posts per page > pagination, paginator
base url > baseurl, site url, root
# programming-book ideas in everyday words
growable list > vector, vec, dynamic array
list that grows > vector, vec, dynamic array
hash table > hashmap, hash map, dictionary
key value pairs > map, hashmap, dictionary
unrecoverable error > panic, abort
missing value > option, none, null
pass a function > callback, closure, higher order
shared behaviour > trait, interface, protocol
shared behavior > trait, interface, protocol
external library > dependency, package, crate
third party library > dependency, package, crate
type parameter > generic, generics, template
switch statement > match, case, pattern matching
string to number > parse, parseint, int
# a twenty-seventh batch, written without looking at any question: containers and
# deployment, databases, testing, HTTP APIs, shells, editors and security in everyday words
# containers and deployment
map a port > publish, port mapping, expose
forward a port > publish, port mapping, expose
container data > volume, bind mount, persistent
several containers > compose, services, pod
multiple containers > compose, services, pod
group of containers > pod, compose
get a shell > exec, interactive, attach
smaller image > multi stage, slim, layers
image size > multi stage, slim, layers
without downtime > rolling update, zero downtime, graceful
no downtime > rolling update, zero downtime, graceful
restart automatically > restart policy, restart, supervisor
isolated environment > container, sandbox, virtual environment
# databases in everyday words
slow query > index, explain, performance
two people > concurrent, locking, conflict
two users > concurrent, locking, conflict
overwrite each other > lost update, locking, conflict
database copy > backup, dump, replica
change a table > alter table, migration
change the table > alter table, migration
table structure > schema, alter table, ddl
empty a table > truncate
empty the table > truncate
linked tables > foreign key, join, relationship
unique values > distinct, unique constraint
# testing in everyday words
fake object > mock, stub, test double
fake objects > mocks, stubs, test doubles
test data > fixture, fixtures, factory
before each test > setup, beforeeach, fixture
after each test > teardown, aftereach, cleanup
how much code > coverage, code coverage
untested code > coverage, uncovered
different inputs > parametrize, parameterized, table driven
many inputs > parametrize, parameterized, table driven
check the result > assert, assertion, expected
run one test > select, test name, filter
# HTTP APIs in everyday words
api address > endpoint, base url, route
page of results > pagination, limit, offset
results per page > pagination, page size, limit
callback url > webhook, callback, notification url
get notified > webhook, notification, subscribe
request limit > rate limit, quota, throttle
login token > access token, bearer, jwt
# shells and terminals
save the output > redirect, redirection, tee
save output > redirect, redirection, tee
command shortcut > alias, abbreviation
stopped job > fg, bg, job control
suspended job > fg, bg, job control
shell prompt > ps1, prompt string
past commands > history, histfile
earlier commands > history, histfile
startup file > rc file, zshrc, bashrc
shell config > rc file, zshrc, bashrc
# editors and IDEs
shortcut keys > key bindings, keybindings, keymap
remap keys > keymap, key binding, bind
record keystrokes > macro, recording
record keys > macro, recording
collapse code > fold, folding
collapse a block > fold, folding
hide a block > fold, folding
switch between files > buffers, buffer list, tabs
split screen > split window, windows, panes
jump to definition > tags, ctags, definition
color scheme > colorscheme, theme, colors
# security in everyday words
prove identity > authenticate, authentication, signature
key pair > keypair, public key, private key
key password > passphrase, agent
remember my password > credential helper, keychain, agent
save my password > credential helper, keychain, agent
certificate error > verification, ca, self signed
untrusted certificate > self signed, ca, trust store
two factor > totp, 2fa, one time password
two step > two factor, 2fa, totp
verification code > totp, one time password, 2fa
authenticator app > totp, one time password, 2fa
genuine > authentic, signature, verify
forgot my password > password reset, reset password, recovery
"""


def _pairs(line: str) -> Iterator[Tuple[str, str]]:
    """The (word, synonym) pairs one line of the table makes, in order: the head with
    each synonym, then for `=` each single word of the group with every other member."""
    line = line.strip()
    if not line or line.startswith("#"):
        return
    sym = "=" in line
    left, _, right = line.partition("=" if sym else ">")
    head = left.strip()
    others = [w.strip() for w in right.split(",") if w.strip()]
    for other in others:
        yield head, other
    if sym:   # every member expands to every other (a phrase typed word for word too)
        group = [head] + others
        for a in group:
            for b in group:
                yield a, b


def _add(out: Dict[str, List[Tuple[str, ...]]], word: str, other: str) -> None:
    if word == other:
        return
    entry = out.setdefault(word, [])
    phrase = tuple(other.replace("-", " ").split())
    if phrase not in entry:
        entry.append(phrase)


def _parse(table: str) -> Dict[str, List[Tuple[str, ...]]]:
    out: Dict[str, List[Tuple[str, ...]]] = {}
    for line in table.splitlines():
        for word, other in _pairs(line):
            _add(out, word, other)
    return out


def _inflections(word: str) -> List[str]:
    """The word and its regular inflections (plural, past, -ing, third person).

    `-es` and `-d` only after the endings that take them: otherwise *card*
    would look up *car*, *mind* and *mines* *min*, *pwd* *pw*, *rides* *rid*.
    """
    forms = [word, word + "s", word + "ed", word + "ing"]
    if word.endswith(("s", "x", "z", "ch", "sh", "o")):
        forms.append(word + "es")
    if word.endswith("e"):
        forms += [word + "d", word[:-1] + "ing"]
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        forms += [word[:-1] + "ies", word[:-1] + "ied"]
    if (len(word) >= 3 and word[-1] not in "aeiouwxy" and word[-2] in "aeiou"
            and word[-3] not in "aeiou"):
        forms += [word + word[-1] + "ed", word + word[-1] + "ing"]   # stop -> stopped
    return forms


def _stems_of(word: str) -> List[str]:
    """Every word of which `word` could be one of the `_inflections` (and itself)."""
    out = [word, word[:-1], word[:-2], word[:-3], word[:-4]]
    out += [word[:-3] + "e", word[:-2] + "e", word[:-3] + "y"]
    return [w for w in out if w]


@functools.lru_cache(maxsize=1)
def _table() -> Dict[str, List[Tuple[str, ...]]]:
    """The whole table, parsed (for `SYNONYMS`; a search reads only the lines it needs)."""
    return _parse(TABLE)


def _lines_holding(word: str) -> Iterator[Tuple[int, str]]:
    """Each line of the table with `word` in it (as any part of its text), with its offset."""
    start = TABLE.find(word)
    while start >= 0:
        begin = TABLE.rfind("\n", 0, start) + 1
        end = TABLE.find("\n", start)
        end = len(TABLE) if end < 0 else end
        yield begin, TABLE[begin:end]
        start = TABLE.find(word, end + 1)


@functools.lru_cache(maxsize=4096)
def _entry(key: str) -> Optional[Tuple[Tuple[int, int], List[Tuple[str, ...]]]]:
    """`key`'s entry in the table, as parsing the whole table would make it, and its
    place there (the line's offset, then which of the line's pairs first made it a
    key), or None if it is no key. Only the lines holding the word are read: a
    question's few words cost a few lines, not the table's 800 (about 2 ms)."""
    out: Dict[str, List[Tuple[str, ...]]] = {}
    place: Optional[Tuple[int, int]] = None
    for offset, line in _lines_holding(key):
        for i, (word, other) in enumerate(_pairs(line)):
            if word == key:
                _add(out, word, other)
                if place is None and key in out:
                    place = (offset, i)
    return None if place is None else (place, out[key])


@functools.lru_cache(maxsize=4096)
def _key(word: str) -> Optional[str]:
    """The entry a word is looked up under: its own if it is a key, else the first
    key in the table of which it is an inflection (a phrase: its own only); kept, as
    the entries are (a question looks up each word and each pair of words typed, and
    an inflection costs some eight lookups of its possible keys)."""
    if _entry(word) is not None:
        return word
    if " " in word:
        return None
    keys = [k for k in _stems_of(word) if word in _inflections(k) and _entry(k) is not None]
    return min(keys, key=lambda k: _entry(k)[0]) if keys else None   # type: ignore[index]


def __getattr__(name: str) -> object:
    if name == "SYNONYMS":   # the whole table, as parsed (made on first use)
        return _table()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def synonyms(word: str) -> List[Tuple[str, ...]]:
    """The table's synonyms of a lower-case word (each a tuple of words), best first."""
    key = _key(word)
    return list(_entry(key)[1]) if key is not None else []   # type: ignore[index]


def same_word(word: str, other: Tuple[str, ...]) -> bool:
    """Whether the table gives `other` as the same word as `word` (a lower-case word
    or phrase, looked up as `synonyms` looks it up): one `=` line holds both, so each
    expands to the other (`folder = directory`), where `a > b` only expands an
    everyday word to the manuals' (`rid > remove`)."""
    key = _key(word)
    return key is not None and tuple(key.split()) in synonyms(" ".join(other))

