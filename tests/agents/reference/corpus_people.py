# ruff: noqa: RUF001, RUF002, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""Phrasings written as people type them, by someone who had not read the grammar (issue 36, part 3).

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind). Written before the grammar was run against them: typos,
numbers as words, mixed zh/en, casual and polite forms, status questions, "stop", requests with no
duration, and messages that must never become an action (weather, negations, past tense, notes).

``TUNING_*`` may drive changes to the grammar: where a row fails, its *family* is generalised (number
words, time words, typo-tolerant keywords), never the phrase added as a string. ``HELD_OUT_PEOPLE_*``
is never tuned on: it is measured as a whole (understood share and wrong actions), not row by row.

The tuning rows after the first 49 per language were written later, by another hand, for the families
where the grammar was weakest: a stop naming what it stops (two things running), status of a quiz, a
score or notes asked back, two apps in one message, messages that must not act (jokes, negations,
hypotheticals, questions about an app) and quiz asks in every order ("练减法5分钟", "5 min subtraction
practice"). The grammar was generalised from them alone; the held-out totals were read once per round.

The last rows of each tuning table (from "my brother is doing a 25 min focus" / "我弟弟在专注25分钟") were
written on 2026-12-06 for the families decision 0064 names, wrong actions first: someone else's doing,
done already, a score reported, a hypothetical, a quoted request, another verb on what runs (pause,
reset, extend) and a stop that names what it keeps; another app's work inside a focus; a duration as
people write it ("1h30", "一个钟", "one hour and a quarter", "1/2 hour"; "a few minutes" asks); the
quiz's short kind names and a kind it cannot do (division); colloquial practice verbs, mixed languages,
request frames, polite stops and status, and fillers or emoji around an activity.

The last rows of each tuning table (from "begin something for 20 mins" / "开始做点什么 15 分钟") were
written for round 7 (decision 0064, amended), wrong actions first: a placeholder activity ("something",
点什么) and a question-form request ("could I…"); the quiz asked in Chinese with an English noun, the times
table or a maths test (来个quiz, 乘法表测一下, 数学测试); activities cut cleanly (trailing "go"/"pls", a label
"focus: guitar", "I'm painting", 专心读书, 定时, 专注模式); typos and units (fokus, 分中, "for 45" asks);
stops of both or of one kept by name last (测验继续); status slang; someone else's need followed by the
person's own request ("…, start it", 开个10分钟的测验).

The last rows of each tuning table (from "45 min on my chemistry lab report" / "内容是整理照片，专注四十分钟")
were written for round 8 (decision 0068) by a helper that read no held-out row, from families named in
its brief: the request among context clauses (a greeting, why, what it is for in a clause of its own, a
label frame, whom it is for), greetings and tails cut from an activity, a bare duration with a go-frame,
stops with a reason or the kept thing first, the quiz asked with arithmetic words (and another app's work
joined to something else: help), noise, and Traditional Chinese; then, from its own rows, what is never a
guess (a range of lengths, "every", "from now", one thing after another) and status asked in more words.
"""

from __future__ import annotations

TUNING_EN = """
start a pomodor for 25 minutes | start | 1500 | -
focsu 30 min on reading | start | 1800 | reading
twenty five minutes of coding please | start | 1500 | coding
can you start a focus timer for half an hour | start | 1800 | -
pomodoro 25 | start | 1500 | -
start 45 minuts of writing | start | 2700 | writing
I want to focus on spanish for fifteen minutes | start | 900 | spanish
could you please set a 20 minute timer for laundry | start | 1200 | laundry
lets do an hour of studying | start | 3600 | studying
focus 1h | start | 3600 | -
start focus 90 sec | start | 90 | -
an hour and a half of deep work pls | start | 5400 | deep work
10 mins focus | start | 600 | -
pomodoro for ten minutes on emails | start | 600 | emails
start a timer for forty minutes | start | 2400 | -
start a pomodoro | ask
i wanna focus on my essay | ask
can we do a focus session | ask
start focusing | ask
focus for 30 hours | range
start a 0 minute pomodoro | range
quiz me on addition for 5 minutes | quiz | 300 | addition
5 min times tables quiz | quiz | 300 | multiplication
ten minutes of subtraction practice | quiz | 600 | subtraction
mixed math quiz for 3 minutes | quiz | 180 | mixed
give me some multiplication problems | ask
test me on times tables | ask
stop | stop
stpo the timer | stop
cancel it | stop
ok im done, end the pomodoro | stop
stop the quiz please | stop
quit | stop
how much time left | status
whats remaining | status
how long till I'm done? | status
is the timer still going | status
time left? | status
what's the weather like today | help
don't start anything | help
I stopped smoking last year | help
help | help
what can you do? | help
I did a 25 minute pomodoro yesterday | help
add a note: buy milk | help
show me my notes | help
thanks! | help
is 25 minutes a good length for a pomodoro? | help
remind me in 10 minutes to call mom | help
don't stop the timer | help
what did I write down | help
read my notes pls | help
what was my score | help
whats my quiz score | help
how did i do on the quiz | help
how many did i get right | help
note: quiz tomorrow at 5 | help
add to my notes: 25 minutes of reading done | help
can you stop me from checking my phone | help
don't start a timer | help
what is a pomodoro | help
what's a quiz | help
if i started a 25 min timer would it ring? | help
what happens if i stop the timer | help
should i do a 10 minute quiz? | help
i hate quizzes | help
how do i stop a quiz | help
can a quiz be longer than an hour | help
my friend did a 5 minute multiplication quiz | help
no quiz today | help
what does stop do | help
i dont want to do math for 10 minutes | help
would a 50 minute pomodoro be too long | help
5 min subtraction practice | quiz | 300 | subtraction
subtraction drill 5 mins | quiz | 300 | subtraction
practice multiplication for ten minutes | quiz | 600 | multiplication
10 minutes of addition problems | quiz | 600 | addition
drill me on times tables 3 min | quiz | 180 | multiplication
addition practise twenty mins | quiz | 1200 | addition
lets practice subtraction for 2 minutes | quiz | 120 | subtraction
math practice 5 min | quiz | 300 | mixed
15 min of mental maths pls | quiz | 900 | mixed
multiplication quizz for 5 minutes | quiz | 300 | multiplication
5 min math drill | quiz | 300 | mixed
focus on multiplication practice for 10 minutes | quiz | 600 | multiplication
practice addition | ask
quiz me for 2 hours | range
practise my multiplcation for 5 min | quiz | 300 | multiplication
drill me on sums for 4 minutes | quiz | 240 | addition
practice piano for 20 minutes | start | 1200 | practice piano
math homework for 30 min | start | 1800 | math homework
stop the quiz pls | stop
stpo quiz | stop
stop everything | stop
ok stop both of them | stop
end the focus timer | stop
cancel the quiz, im done | stop
kill the timer | stop
stop the math quiz | stop
i want to stop the quiz now | stop
please end my pomodoro session | stop
cancel the reading timer | stop
stop the 25 min timer | stop
finish the drill now | stop
how long left | status
how many mins left on the quiz | status
is my timer still going? | status
is the quiz still running | status
how much time do i have left | status
hows my pomodoro going | status
time remaining? | status
whats left on the clock | status
is the pomodoro over yet | status
how much longer | status
how long have i got | status
is my reading timer done | status
hows the quiz going | status
is it over yet? | status
how many minutes do i have left on the drill | status
is the timer on my phone broken | help
quiz me on addition for 5 min then focus 25 min | help
start a 10 min quiz and a 25 minute focus | help
note: finish the quiz later | help
stop the timer and quiz me on subtraction for 3 minutes | help
could u pls quiz me on times tables for like five mins | quiz | 300 | multiplication
yo gimme a 2 min addition drill | quiz | 120 | addition
hey can you do a quick subtraction quiz, three minutes | quiz | 180 | subtraction
umm ok stop the quiz i guess | stop
nah cancel the pomodoro | stop
plz stop timer | stop
whats my time left | status
hows it going, how many mins left | status
r u still timing me? | status
can i see my notes | help
what did i note earlier | help
did i pass the quiz | help
lol no dont start anything | help
im not gonna focus today | help
what's the point of a pomodoro | help
i was thinking about a 25 min focus | help
you can't stop me lol | help
what would happen if i quit the quiz | help
tell me a joke | help
pomodoro sounds like a pasta | help
all right, stop the timer | stop
I can't focus for 25 minutes | help
i cant even do 5 min of math practice | help
i usually study for an hour | help
every day i read for 30 mins | help
I wish I could focus for two hours | help
my teacher said to practice multiplication for 10 minutes | help
at 3pm start a 25 minute focus | help
next week I'll do a 10 min quiz every day | help
on monday focus 1 hour on taxes | help
25 minutes is too long | help
ok fine, 20 min of coding then | start | 1200 | coding
k start 15 min | ask
sure, quiz me on addition 5 min | quiz | 300 | addition
alright lets do 3 minutes of times tables | quiz | 180 | multiplication
start a pomodoro of twenty-five minutes for my thesis | start | 1500 | my thesis
could you time me reading for 20 min | start | 1200 | reading
stop stop stop | stop
cancel that | stop
ugh stop the quiz | stop
how many minutes r left | status
is my focus still on? | status
what was I working on | status
multiplication 5 min | quiz | 300 | multiplication
5 mins multiplication pls | quiz | 300 | multiplication
times tables, 10 minutes | quiz | 600 | multiplication
addition for 3 min | quiz | 180 | addition
do subtraction for five minutes | quiz | 300 | subtraction
10 min of sums | quiz | 600 | addition
a quick 2 minute math quiz | quiz | 120 | mixed
quiz on minus for 4 mins | quiz | 240 | subtraction
test my multiplication for 6 minutes | quiz | 360 | multiplication
arithmetic practice, half an hour | quiz | 1800 | mixed
quiz me 5 min | quiz | 300 | mixed
practice adding for 5 minutes | quiz | 300 | addition
study multiplication for 20 min | start | 1200 | study multiplication
math for 30 minutes | ask
tmrw focus 1h on chem | help
l8r lets do a 20 min quiz | help
tonite 45 mins of reading | help
is 25 minutes enough? | help
would 10 min of subtraction be enough | help
can you add a 10 minute math quiz | quiz | 600 | mixed
quiz me on addition and subtraction for 6 minutes | quiz | 360 | mixed
my brother is doing a 25 min focus | help
my sister started a 30 minute timer | help
he is reading for 20 minutes | help
she wants a 10 min quiz | help
my friends are doing 45 minutes of homework | help
I already did 25 minutes of reading | help
finished a 30 min focus just now | help
just did 20 mins of homework | help
completed a 10 minute quiz | help
I got 8/10 on the quiz | help
got 7 out of 10 on the 5 minute quiz | help
I scored 9 on the multiplication quiz | help
12 right in the 2 min addition quiz | help
if I did a 30 min focus would that help | help
what if I do a 10 minute quiz | help
say I focus for an hour, then what | help
he said "start a 25 minute focus" | help
"focus 25 minutes" is what my teacher types | help
pause the timer | help
pause the quiz for a sec | help
reset the timer | help
extend the focus by 5 minutes | help
add 5 more minutes to the timer | help
stop the quiz but keep the timer | stop
stop everything except the focus | stop
hey how's it going | help
thanks for the timer | help
hi! love the focus app | help
focus 10 min on multiplication quiz | quiz | 600 | multiplication
focus 20 min on quiz review | help
focus 15 minutes on addition and my essay | help
write down focus 25 minutes tomorrow | help
add 25 min reading to my notes | help
remember that I focused for an hour | help
focus for 1h30 | start | 5400 | -
1 hour 30 of reading | start | 5400 | reading
focus 1 hour 30 | start | 5400 | -
focus 1:30 | ask
focus 25 for 10 minutes | help
focus for one hour and a quarter | start | 4500 | -
an hour and a quarter of reading | start | 4500 | reading
focus a few minutes | ask
a few minutes of reading | ask
1/2 hour of reading | start | 1800 | reading
focus 1/2 hour | start | 1800 | -
quiz mult 10m | quiz | 600 | multiplication
quiz add 2m | quiz | 120 | addition
quiz sub 45s | quiz | 45 | subtraction
mult quiz 5 min | quiz | 300 | multiplication
division quiz 5 min | help
5 min division practice | help
quiz me on division for 3 minutes | help
25 minutes of reading, can you time that | start | 1500 | reading
reading 20 min go | start | 1200 | reading
homework 30 min, go | start | 1800 | homework
30 min of essay writing, time it please | start | 1800 | essay writing
Please end the quiz | stop
quiz stop | stop
timer stop please | stop
quiz status | status
status of the timer | status
homework fr 25 min | start | 1500 | homework
25 min homework fr | start | 1500 | homework
- [ ] reading 30 min | start | 1800 | reading
* essay 45 min | start | 2700 | essay
reading 25 min 🙏 | start | 1500 | reading
study chapter 3 for 20 minutes | start | 1200 | study chapter 3
hey, focus 25 min on reading | start | 1500 | reading
my dad wants me to focus for an hour | help
our teacher is running a 10 minute quiz | help
she's doing 30 minutes of piano | help
already did my 25 min pomodoro | help
completed 3 pomodoros today | help
I scored 15/20 in 5 minutes | help
what if the timer runs for 2 hours | help
resume the timer | help
restart the quiz for 5 minutes | help
stop the timer but not the quiz | stop
cancel the quiz, leave the focus running | stop
focus 2 hours 15 | start | 8100 | -
read for 2h15 | start | 8100 | read
an hour and a quarter of coding | start | 4500 | coding
a quarter of an hour of stretching | start | 900 | stretching
some minutes of yoga | ask
focus several minutes | ask
quiz mult 3 min | quiz | 180 | multiplication
add quiz 4 min | quiz | 240 | addition
sub quiz 2 minutes | quiz | 120 | subtraction
divide practice 5 min | help
20 minutes of essay writing, could you time it | start | 1200 | essay writing
the timer off please | stop
quiz end now | stop
timer status? | status
status on my focus | status
reading 30 min lol | start | 1800 | reading
• reading 30 min | start | 1800 | reading
- [x] emails 15 min | start | 900 | emails
🔥 deep work 50 min 🔥 | start | 3000 | deep work
focus 45 min on physics 💪 | start | 2700 | physics
2 x 25 min pomodoro | help
focus 25 min x2 | help
reading twice for 20 minutes | help
3 rounds of 25 minutes | help
i love focusing | help
I really like the 25 minute timer | help
add quiz 5 min to my notes | help
write down: quiz me on addition for 5 minutes | help
note: 10 min multiplication quiz | help
begin something for 20 mins | ask
focus on something for 15 min | start | 900 | -
do stuff for 30 minutes | ask
could I practice subtraction for 6 minutes? | quiz | 360 | subtraction
can I do some multiplication practice for 10 min? | quiz | 600 | multiplication
could I get a 3 minute addition drill? | quiz | 180 | addition
can i focus for 20 minutes? | start | 1200 | -
could I read for 25 minutes? | start | 1500 | read
writing for 30 minutes go | start | 1800 | writing
reading 20 min, start | start | 1200 | reading
coding for an hour, starting now | start | 3600 | coding
sketching 15 minutes pls | start | 900 | sketching
focus 25 min on flashcards now | start | 1500 | flashcards
new focus - 14 mins | start | 840 | -
focus: piano, 25 minutes | start | 1500 | piano
fifteen minute focus, folding laundry | start | 900 | folding laundry
set a timer for an hour, I'm knitting | start | 3600 | knitting
timer for 40 minutes, I'm working on my essay | start | 2400 | my essay
twenty minute timer please, im journaling | start | 1200 | journaling
start a fokus for 25 minutes | start | 1500 | -
fokus 10 min | start | 600 | -
focsu for 45 minutes | start | 2700 | -
grind physics for 40 | ask
study bio for 30 | ask
okay lets do this. 35 mins, no distractions | ask
alright lets go. 40 minutes, phone away | ask
15 more minutes of revising | start | 900 | revising
10 more minutes of reading please | start | 600 | reading
i give up on the quiz, end it | stop
this quiz is too hard, end it | stop
quick time check | status
how far along are we? | status
how far along am I? | status
my daughter needs 12 min of addition practice, start it please | quiz | 720 | addition
my son wants 5 minutes of multiplication practice, can you start it | quiz | 300 | multiplication
my kid needs a 15 min subtraction drill, go | quiz | 900 | subtraction
let me practise addition for 5 min? | quiz | 300 | addition
could I maybe do a focus on something for 10 minutes | start | 600 | -
start whatever for 25 minutes | ask
focus - 50 min | start | 3000 | -
my daughter needs 10 min of addition practice | help
could I practise division for 5 minutes? | help
my brother is doing a 25 min focus, start it | help
can I get a 10 minute focus? | start | 600 | -
could I do 20 minutes of drawing? | start | 1200 | drawing
can i have a 45 min focus for my report | start | 2700 | my report
may I practise multiplication for 4 minutes | quiz | 240 | multiplication
could I study multiplication tables for 5 mins please? | start | 300 | study multiplication tables
timer: 30 min, laundry | start | 1800 | laundry
focus — 20 min — emails | start | 1200 | emails
25 min focus, go | start | 1500 | -
journaling for 10 min now | start | 600 | journaling
homework 45 minutes starting now | start | 2700 | homework
do something fun for 10 minutes | start | 600 | something fun
learn spanish for 30 | ask
foucs 25 min | start | 1500 | -
both of them, stop | stop
ok I'm done with the quiz, stop it | stop
where am i at | help
how much longer on this timer | status
my son needs a 5 min times tables quiz, start it for him | quiz | 300 | multiplication
this quiz is too hard | help
I don't want to stop, end it | help
give me 20 more minutes | help
add 10 more minutes | help
45 min on my chemistry lab report | start | 2700 | my chemistry lab report
focus 30 min for the sales deck | start | 1800 | sales deck
timer 20 min for the quarterly budget pls | start | 1200 | quarterly budget
topic is spanish verbs, 20 minutes | start | 1200 | spanish verbs
subject: calculus, 45 min focus | start | 2700 | calculus
task = invoices, timer 30 min | start | 1800 | invoices
25 min focus, topic: photosynthesis | start | 1500 | photosynthesis
focus 40 min, subject is organic chem | start | 2400 | organic chem
project: garden plan. 1 hour please | start | 3600 | garden plan
I'm drafting a grant proposal, start a 50 min focus | start | 3000 | grant proposal
im so behind on my history essay, can u start a focus for 25 min | start | 1500 | my history essay
I want to do the expense report. 30 min timer please | start | 1800 | expense report
studying for the bar exam, set a timer for 2 hours | start | 7200 | bar exam
start a focus for 35 minutes, I'm cleaning the garage | start | 2100 | cleaning the garage
need to finish the slides. focus 45 min | start | 2700 | slides
gotta write a cover letter, 30 min focus pls | start | 1800 | write a cover letter
yo start focus 20 min | start | 1200 | -
hey focus 15 min | start | 900 | -
Sir please start a 30 minute focus | start | 1800 | -
Good morning! focus 25 min on emails | start | 1500 | emails
start a 25 min focus, thank you so much | start | 1500 | -
pls pls start a timer for 10 min | start | 600 | -
thirty min focus sesh | start | 1800 | -
quick focus session 15 min lol | start | 900 | -
20 min focus thing | start | 1200 | -
focus 25 min on reading, thanks! | start | 1500 | reading
hello, could you set a 45 minute timer for physics please | start | 2700 | physics
my daughter is doing homework, start a 30 min focus timer | start | 1800 | homework
my son is practicing piano, can you start a 20 minute timer | start | 1200 | practicing piano
my roommate is asleep so start a 40 min focus | start | 2400 | -
the baby is napping so I've got maybe forty minutes. start a focus for 40 min, I need to do the bills | start | 2400 | bills
exam tomorrow aaaa quick start focus one hour | start | 3600 | -
i have a test tmrw, pls start focus 30 min | start | 1800 | -
big presentation on friday!! start a 50 minute focus | start | 3000 | -
deadline tonight, focus 90 min now | start | 5400 | -
i have an exam tomorrow. start a 45 minute focus for chemistry | start | 2700 | chemistry
my sister is doing a 25 min focus | help
my son did homework for an hour | help
my daughter is doing homework | help
tomorrow start a focus for 1 hour | help
let's do 30 minutes | ask
ok do 20 min | ask
let's go 25 minutes | ask
alright, 45 minutes, go | ask
lets do 15 min then | ask
do 10 mins | ask
finish the focus early | stop
end the timer now pls | stop
the quiz can stop now | stop
quiz can end | stop
please finish the quiz early | stop
end my focus please, something came up | stop
something came up, stop the timer | stop
sorry gotta go, stop the focus | stop
stop the quiz but keep my focus going | stop
the quiz can end, timer stays | stop
end the quiz, leave my timer alone | stop
stop the timer, quiz keeps going | stop
kill the quiz but not the focus | stop
test me on adding numbers for 5 minutes | quiz | 300 | addition
quiz me ten minutes, just sums | quiz | 600 | addition
times tables 5 min | quiz | 300 | multiplication
5 minutes of taking away | quiz | 300 | subtraction
plus and minus practice for 6 min | quiz | 360 | mixed
give me 8 minutes of adding | quiz | 480 | addition
test me on taking away for 4 min | quiz | 240 | subtraction
3 min of multiplying numbers | quiz | 180 | multiplication
focus 20 min on sums | quiz | 1200 | addition
focus 10 min on times tables | quiz | 600 | multiplication
haha my cat walked on the keyboard | help
lol ok | help
brb coffee | help
asdfgh | help
oops wrong chat | help
hmm | help
nice | help
test | help
focus 30 min on math | start | 1800 | math
focus 45 min on math homework | start | 2700 | math homework
start a 25 min focus for my maths revision | start | 1500 | my maths revision
i need to revise for my maths test, 40 min focus | start | 2400 | my maths test
start a focus for 1 hour, topic is tax returns | start | 3600 | tax returns
25 min, subject: french grammar | start | 1500 | french grammar
can you start a 30 minute focus? I'm writing my thesis | start | 1800 | writing my thesis
focus 30 min: the history essay | start | 1800 | history essay
25 mins on the budget spreadsheet please | start | 1500 | budget spreadsheet
start 15 min on a blog post | start | 900 | blog post
hey there! start a timer for 20 minutes please | start | 1200 | -
morning! focus 1 hour on the novel | start | 3600 | novel
hiya, 30 min focus on guitar | start | 1800 | guitar
thanks in advance, start a 25 minute focus | start | 1500 | -
start a focus 25 min ty | start | 1500 | -
focus 25 min on laundry pls ty | start | 1500 | laundry
20 min focus on emails kthx | start | 1200 | emails
ugh ok stop the timer | stop
stop the focus, i'm leaving | stop
done for today, end the timer | stop
just end the quiz | stop
abort the quiz pls | stop
stop the quiz, keep the focus | stop
my mum is cooking, start a 30 minute focus for me | start | 1800 | -
my kids are at school so focus 2 hours on the website | start | 7200 | website
heyyy can u start a 25 min focus for my bio notes | start | 1500 | my bio notes
yo can you do a 45 minute focus, working on the podcast script | start | 2700 | podcast script
good evening, 1 hour focus for tax stuff please | start | 3600 | tax stuff
pls start a 30 minute timer thx | start | 1800 | -
start a 20 minute focus sesh for reading | start | 1200 | reading
Could you kindly start a focus of 40 minutes for the quarterly report? | start | 2400 | quarterly report
ok so I'm revising for finals, 50 min focus | start | 3000 | finals
i'm writing a novel. 2 hour focus please | start | 7200 | writing a novel
focus timer 25 mins - task: clean inbox | start | 1500 | clean inbox
focus 30m, topic = linear algebra | start | 1800 | linear algebra
label: piano scales, 15 min | start | 900 | piano scales
25 min focus pls, gonna read | start | 1500 | read
the kids are finally asleep. 45 minute focus please | start | 2700 | -
im exhausted but start a 25 min focus | start | 1500 | -
so tired lol, start 20 min focus | start | 1200 | -
presentation due friday, set a 90 min timer for the slides | start | 5400 | slides
30 min focus please - thank you! | start | 1800 | -
go for 20 minutes | ask
ok let's go, 50 min | ask
let's do 1 hour | ask
do 45 min please | ask
stop the focus please, my boss is calling | stop
my boss just walked in, end the timer | stop
the focus can end now, thanks | stop
end quiz, keep timer | stop
quiz off, focus stays | stop
finish the timer early please | stop
i'm done with the timer, end it | stop
quiz me on plus for 3 minutes | quiz | 180 | addition
minus practice 4 min | quiz | 240 | subtraction
do sums for 6 minutes | quiz | 360 | addition
multiplying practice 5 min | quiz | 300 | multiplication
focus 15 min on adding | quiz | 900 | addition
focus 20 minutes on times tables and spelling | help
spend 10 minutes on times tables and spelling | help
practice piano and multiplication for 20 min | help
revise multiplication for 15 min | start | 900 | revise multiplication
my cat is sitting on my laptop lmao | help
whoops | help
k cool | help
coffee time | help
sry wrong window | help
my brother has a test tomorrow | help
tomorrow, focus 1 hour | help
at 9pm, start a 30 min focus | help
in 10 minutes, start a focus for 25 min | help
if i finish early, start a 20 min focus | help
my sister wants a 25 min focus, start it | help
start a focus: 30 min, spanish homework | start | 1800 | spanish homework
focus mode 45 min physics | start | 2700 | physics
timer 30 min for reading pls | start | 1800 | reading
can you time 40 mins of studying for me | start | 2400 | studying
set focus to 25 minutes for the essay | start | 1500 | essay
focus on the presentation for 1 hour please | start | 3600 | presentation
I'd like to focus on my French for 20 minutes | start | 1200 | my French
need 30 mins to work on the website | start | 1800 | website
45 minute focus block for coding | start | 2700 | coding
Focus session, 30 mins, topic: budgeting | start | 1800 | budgeting
let me focus for 20 min on the cover letter | start | 1200 | cover letter
start focusing on spanish vocab for 15 minutes | start | 900 | spanish vocab
could you set up a 25-min focus for revision | start | 1500 | revision
one hour of focus for my dissertation pls | start | 3600 | my dissertation
timer 15m yoga | start | 900 | yoga
hey can you time me, 30 min of drawing | start | 1800 | drawing
start a 40min focus, ty! | start | 2400 | -
30 mins focus on emails pls and thank u | start | 1800 | emails
focus 25 min on my lab report, thanks a lot | start | 1500 | my lab report
hi hi hi can i get a 30 min focus for the essay | start | 1800 | essay
focus 30 min on our pitch deck | start | 1800 | our pitch deck
set a timer for 25 min while I read | start | 1500 | read
time me for 30 min while I study | start | 1800 | study
I'll be working on the pitch deck, 45 min focus please | start | 2700 | pitch deck
working on slides rn, start 30 min | start | 1800 | slides
doing taxes, 1 hr focus | start | 3600 | taxes
coding session 2 hours | start | 7200 | coding
a 25 minute pomodoro for chapter 4 reading | start | 1500 | chapter 4 reading
25 min focus (reading) | start | 1500 | reading
Start a focus session of 45 min for my German lesson. | start | 2700 | my German lesson
focus for 30 min pls I have to study chem | start | 1800 | study chem
turn it off | stop
switch the timer off please | stop
stop the timer I need to leave | stop
ok that's enough, stop | stop
can you end the quiz now | stop
focus done, end it | stop
focus 20-30 min | ask
study for 1 to 2 hours | ask
start a focus of twenty or thirty minutes | ask
read for 20~30 mins | ask
focus 1/2 hour on emails | start | 1800 | emails
a 25-minute focus | start | 1500 | -
focus 25 min every hour | help
25 min each | help
20 min reading then times tables | help
study then quiz me 10 min | help
quiz 5 min and focus | help
test 10 min | help
a quick test 5 min | help
exam prep 30 min | start | 1800 | exam prep
focus 20 min on the test | start | 1200 | test
ok fine, 15 min of sketching then | start | 900 | sketching
my son has a maths test tomorrow, quiz him on times tables for 10 minutes | quiz | 600 | multiplication
exam tomorrow!! quiz me on multiplication for 5 min | quiz | 300 | multiplication
hey there, quiz me on addition for 5 minutes please | quiz | 300 | addition
my brother did a quiz, quiz me for 5 min | help
Please begin a 30-minute focus period for reading. | start | 1800 | reading
Could you please set up a timer of 45 minutes? I'll be reviewing contracts. | start | 2700 | reviewing contracts
Set a 20 min timer. Meditation. | start | 1200 | Meditation
Timer, 1 hour, spreadsheet cleanup | start | 3600 | spreadsheet cleanup
let's get 40 mins of deep work in | start | 2400 | deep work
need a 25m focus block for inbox zero | start | 1500 | inbox zero
1h focus pls - thesis | start | 3600 | thesis
put me on a 30 min focus for the quarterly numbers | start | 1800 | quarterly numbers
I want a 50-minute focus on the grant | start | 3000 | grant
25 minutes. reading. go. | start | 1500 | reading
please time 30 minutes for my workout | start | 1800 | my workout
block out 2 hours for the novel | start | 7200 | novel
focus 25 min pls and thx | start | 1500 | -
can we do 45 min on the essay? | start | 2700 | essay
i'd love a 20 min focus on guitar please! | start | 1200 | guitar
start timer 30 minutes laundry folding | start | 1800 | laundry folding
practice my 7 times table for 5 min | quiz | 300 | multiplication
number drills 5 min | quiz | 300 | mixed
arithmetic 10 min | quiz | 600 | mixed
where are we at with the timer | status
how long has it been | status
when's my timer up | status
how many minutes till the end | status
how much time is left on the quiz? | status
lol the timer is funny | help
cool app | help
omg | help
start a focus 10 minutes from now | help
start a 30 min focus soon | help
focus 1 hr and 15 | start | 4500 | -
focus an hour-long | start | 3600 | -
focus for 25 min at once | start | 1500 | -
start focus 25 minutes right away | start | 1500 | -
reading 1 hour and 10 | start | 4200 | reading
can i get a focus going? 30 min, econ reading | start | 1800 | econ reading
ok 45 min focus, gonna grind through the backlog | start | 2700 | grind through the backlog
set the timer for 25 please i need to read chapter 6 | ask
let's focus for an hour, I have to finish the deck | start | 3600 | deck
pls stop the quiz, gotta go | stop
you can turn off the timer now | stop
okay quiz is over, stop it | stop
i need to stop procrastinating, start a 25 min focus | help
I have to quit scrolling | help
yesterday was rough. start a focus for 25 min | start | 1500 | -
my mom says hi, start a focus for 20 min | help
fire up a 25 min focus | start | 1500 | -
kick off a 30 minute timer for emails | start | 1800 | emails
throw on a 20 min timer | start | 1200 | -
gimme a 45 min focus on the report pls | start | 2700 | report
need a 30 min timer asap | start | 1800 | -
my kid has homework, can you start a 30 min timer for him | start | 1800 | -
my son needs to practice violin, start a 20 minute focus for him | start | 1200 | practice violin
grandpa wants to do his crossword, set a 25 min timer please | start | 1500 | -
it's my daughter's reading time, 20 minute timer please | start | 1200 | -
the kids are doing homework so start a 45 min focus | start | 2700 | homework
"""

TUNING_ZH = """
开始番茄钟25分钟 | start | 1500 | -
专注二十五分钟 | start | 1500 | -
帮我focus半小时 | start | 1800 | -
开始 pomodoro 25 min | start | 1500 | -
我要写作业，计时一个小时 | start | 3600 | 写作业
专注一刻钟 | start | 900 | -
看书四十分钟 | start | 2400 | 看书
请帮我开一个二十分钟的番茄钟 | start | 1200 | -
背单词15分钟 | start | 900 | 背单词
专住30分钟 | start | 1800 | -
来个番茄，25分钟 | start | 1500 | -
开始专注一个半小时 | start | 5400 | -
学习两个小时 | start | 7200 | 学习
定个10分钟的计时 | start | 600 | -
练琴半个小时 | start | 1800 | 练琴
开始番茄钟 | ask
我想专注一下 | ask
帮我计时 | ask
我要开始写论文了，帮我计个时 | ask
专注30个小时 | range
专注0分钟 | range
做5分钟加法题 | quiz | 300 | addition
乘法练习十分钟 | quiz | 600 | multiplication
来三分钟减法测验 | quiz | 180 | subtraction
混合运算练习5分钟 | quiz | 300 | mixed
给我出几道乘法题 | ask
考考我加法 | ask
停 | stop
不做题了 | stop
停止计时 | stop
结束番茄钟 | stop
取消吧 | stop
别计时了 | stop
还有多久 | status
还剩几分钟？ | status
剩多少时间 | status
计时还在吗 | status
现在在计时吗？ | status
明天天气怎么样 | help
不要开始 | help
我已经停止抽烟了 | help
帮助 | help
你能做什么？ | help
昨天我专注了25分钟 | help
记一下：明天买牛奶 | help
看看我的笔记 | help
谢谢 | help
番茄钟一般多长时间？ | help
别停 | help
十分钟后提醒我打电话 | help
我的笔记 | help
我记了啥 | help
我得了多少分 | help
测验成绩是多少 | help
刚才那个测验我答对了几道 | help
我不想专注了吗 | help
番茄钟是什么 | help
什么是番茄工作法 | help
你能阻止我玩手机吗 | help
不要开始计时 | help
如果我专注25分钟会怎样 | help
加法题难吗 | help
我讨厌做题 | help
口算是什么意思 | help
朋友做了十分钟乘法题 | help
今天不做乘法题 | help
练减法5分钟 | quiz | 300 | subtraction
乘法题十分钟 | quiz | 600 | multiplication
5分钟减法练习 | quiz | 300 | subtraction
十分钟的加法练习 | quiz | 600 | addition
做乘法题 十五分钟 | quiz | 900 | multiplication
来一组三分钟的口算 | quiz | 180 | mixed
练习加法二十分钟 | quiz | 1200 | addition
练乘法口诀5分钟 | quiz | 300 | multiplication
考我减法，5分钟 | quiz | 300 | subtraction
减法 practice 5 min | quiz | 300 | subtraction
5 min 乘法 quiz | quiz | 300 | multiplication
专注做乘法题10分钟 | quiz | 600 | multiplication
乘法练习 | ask
练减法 | ask
口算两个小时 | range
做数学作业半小时 | start | 1800 | 做数学作业
做加法作业十分钟 | start | 600 | 做加法作业
刷几道乘法 3分钟 | quiz | 180 | multiplication
结束阅读计时 | stop
测验不做了 | stop
全部停掉 | stop
都停了吧 | stop
把番茄钟关了 | stop
停一下口算 | stop
结束练习吧 | stop
取消专注 | stop
别考了 | stop
stop一下 | stop
停止quiz | stop
把乘法测验停了 | stop
取消明天的计时 | help
专注和测验都停掉 | stop
还有几分钟 | status
计时器还在走吗 | status
测验还剩多久 | status
还有多长时间结束 | status
番茄钟结束了没 | status
还要多久啊 | status
口算还有几分钟 | status
剩下几分钟了 | status
我还要专注多久 | status
测验还在进行吗 | status
测验结束了吗 | status
还要做多久 | status
timer还剩多少 | status
先做5分钟加法题然后专注25分钟 | help
来个十分钟测验再来个25分钟番茄钟 | help
记一下：明天做测验 | help
麻烦出三分钟的减法题 | quiz | 180 | subtraction
考考我乘法呗，五分钟 | quiz | 300 | multiplication
来5min口算 | quiz | 300 | mixed
嗯嗯 测验停一下吧 | stop
算了算了 不考了 | stop
把计时停了 | stop
quiz还有多久 | status
还剩几分钟啊 | status
测验还有多少时间 | status
我记了些什么 | help
我考得怎么样 | help
刚才测验答对几道 | help
哈哈 不用开始 | help
我今天不想专注 | help
番茄钟有什么用 | help
我在想要不要专注25分钟 | help
你管不了我 | help
要是我退出测验会怎样 | help
讲个笑话 | help
番茄炒蛋怎么做 | help
我专注不了25分钟 | help
我没做10分钟加法题 | help
我每天专注25分钟 | help
我平时学习一个小时 | help
真希望我能专注两个小时 | help
老师说要练十分钟乘法 | help
下午三点开始专注25分钟 | help
下周每天做10分钟测验 | help
周一专注一小时报税 | help
25分钟太长了 | help
那就30分钟吧，开始 | ask
行，写代码20分钟 | start | 1200 | 写代码
好的，开始15分钟 | ask
好吧，考考我加法5分钟 | quiz | 300 | addition
来3分钟乘法口诀 | quiz | 180 | multiplication
帮我计时二十分钟看书 | start | 1200 | 看书
停停停 | stop
取消那个 | stop
烦死了，不考了 | stop
还剩几分钟了呀 | status
专注还在进行吗？ | status
我在专注什么来着 | status
乘法5分钟 | quiz | 300 | multiplication
5分钟的乘法 | quiz | 300 | multiplication
加法十分钟 | quiz | 600 | addition
做减法三分钟 | quiz | 180 | subtraction
加减法混合练习10分钟 | quiz | 600 | mixed
来十分钟口算吧 | quiz | 600 | mixed
两分钟乘法测验 | quiz | 120 | multiplication
练一下乘法，5分钟 | quiz | 300 | multiplication
测一下我的减法 五分钟 | quiz | 300 | subtraction
算术题半小时 | quiz | 1800 | mixed
出5分钟的题 | quiz | 300 | mixed
考我十分钟 | quiz | 600 | mixed
乘法作业20分钟 | start | 1200 | 乘法作业
加油，考考我乘法5分钟 | quiz | 300 | multiplication
加油！来个口算5分钟 | quiz | 300 | mixed
减肥期间口算10分钟 | quiz | 600 | mixed
考考我加减5分钟 | quiz | 300 | mixed
专注25分钟好吗 | start | 1500 | -
25分钟够吗 | help
专注一个小时会累吗 | help
我需要专注25分钟吗 | help
等下专注25分钟 | help
明早专注一小时 | help
下次专注半小时 | help
专注25分钟又失败了 | help
可以帮我专注25分钟吗 | start | 1500 | -
我弟弟在专注25分钟 | help
我妈妈开了一个30分钟的计时 | help
他在做10分钟口算 | help
同学们都在专注一小时 | help
我已经专注了25分钟 | help
刚做完20分钟作业 | help
专注25分钟做完了 | help
我测验得了8分 | help
口算考了90分 | help
五分钟口算我答对了8道 | help
要是专注30分钟会怎样 | help
他说“专注25分钟” | help
重置计时器 | help
计时延长五分钟 | help
计时再加10分钟 | help
除了专注都停了 | stop
停止测验但是保留计时 | stop
你好呀，今天好累 | help
谢谢你的计时 | help
专注20分钟做乘法题 | quiz | 1200 | multiplication
专注15分钟练口算 | quiz | 900 | mixed
专注20分钟做乘法和写作文 | help
把专注25分钟写作业记到笔记里 | help
记一下明天专注一小时 | help
在笔记里写：专注30分钟 | help
专注一个一个半小时 | start | 5400 | -
专注1小时30 | start | 5400 | -
看书1小时30 | start | 5400 | 看书
专注1:30 | ask
专注25，10分钟 | help
学习一个钟 | start | 3600 | 学习
专注半个钟 | start | 1800 | -
专注几分钟 | ask
乘除法练习5分钟 | help
除法练习5分钟 | help
考考我除法三分钟 | help
练一练乘法5分钟 | quiz | 300 | multiplication
练会儿乘法，10分钟 | quiz | 600 | multiplication
乘法练一练 5分钟 | quiz | 300 | multiplication
加法练5分钟 | quiz | 300 | addition
减法刷5分钟 | quiz | 300 | subtraction
刷10分钟乘法题 | quiz | 600 | multiplication
刷题半小时 | start | 1800 | 刷题
测验stop | stop
quiz停止 | stop
专注status | status
stop测验 | stop
专注25分钟写essay | start | 1500 | 写essay
我累了，请结束测验 | stop
请结束计时吧 | stop
计时状态 | status
测验状态 | status
25分钟看书，帮我计时 | start | 1500 | 看书
写作业40分钟，开始 | start | 2400 | 写作业
背英语单词🙏 20分钟 | start | 1200 | 背英语单词
专注20分钟背英语单词🙏 | start | 1200 | 背英语单词
- [ ] 阅读 30分钟 | start | 1800 | 阅读
我姐姐要专注一小时 | help
他们在做口算5分钟 | help
同事刚开了25分钟的番茄钟 | help
已经学了半小时了 | help
看完书了，半小时 | help
口算我答对了九道，五分钟的 | help
假如我专注两小时呢 | help
她说要专注40分钟 | help
重新开始测验5分钟 | help
把计时延长到一小时 | help
除了番茄钟，其他都停掉 | stop
停掉计时，保留测验 | stop
专注2小时15 | start | 8100 | -
读书一个半钟 | start | 5400 | 读书
写作业两个钟 | start | 7200 | 写作业
半个钟看书 | start | 1800 | 看书
专注一小时二十 | start | 4800 | -
专注几个小时 | ask
练几分钟乘法 | ask
练一练加法三分钟 | quiz | 180 | addition
减法练一练，五分钟 | quiz | 300 | subtraction
乘法刷题10分钟 | quiz | 600 | multiplication
练会儿口算五分钟 | quiz | 300 | mixed
除法口算5分钟 | help
专注30分钟做加法题 | quiz | 1800 | addition
专注30分钟，做加法和背单词 | help
测验end | stop
计时器stop | stop
quiz状态 | status
番茄钟进度 | status
请结束计时 | stop
我好累，结束专注吧 | stop
40分钟写作业，开始计时 | start | 2400 | 写作业
看书30分钟，帮我计个时 | start | 1800 | 看书
背单词🙏🙏 15分钟 | start | 900 | 背单词
📚看书 20分钟 | start | 1200 | 看书
- 阅读 30分钟 | start | 1800 | 阅读
专注25分钟写report | start | 1500 | 写report
专注25分钟两次 | help
番茄钟25分钟来三轮 | help
我喜欢专注 | help
另外再专注10分钟 | start | 600 | -
再来25分钟 | ask
再看20分钟书 | start | 1200 | 看书
把口算5分钟记到笔记里 | help
笔记：口算练习5分钟 | help
记一下：考考我乘法5分钟 | help
开始做点什么 15 分钟 | ask
做点什么二十分钟 | ask
随便干点啥30分钟 | ask
来个quiz，加法，4min | quiz | 240 | addition
来个quiz，乘法，5分钟 | quiz | 300 | multiplication
九九乘法表测一下，5分钟 | quiz | 300 | multiplication
乘法表考一下 十分钟 | quiz | 600 | multiplication
帮我测一下九九乘法表，3分钟 | quiz | 180 | multiplication
数学测试10分钟 | quiz | 600 | mixed
来个数学小测，五分钟 | quiz | 300 | mixed
算术测验 8 分钟 | quiz | 480 | mixed
做一个加法quiz，两分钟 | quiz | 120 | addition
我要练字，给我计时二十分钟 | start | 1200 | 练字
我要看书，帮我计时半小时 | start | 1800 | 看书
麻烦开启一个四十五分钟的专注 | start | 2700 | -
麻烦开一个二十分钟的番茄钟 | start | 1200 | -
专心读书一个小时 | start | 3600 | 读书
专心写代码45分钟 | start | 2700 | 写代码
专注模式 2小时 | start | 7200 | -
专注模式25分钟 | start | 1500 | -
定时 50 分钟 | ask
定时二十分钟 | ask
帮我start一个timer，40分钟 | start | 2400 | -
帮我开个focus 20分钟 | start | 1200 | -
专注25分中 | start | 1500 | -
看书30分中 | start | 1800 | 看书
两个都停掉吧 | stop
都给我停了吧 | stop
全都停了吧 | stop
停一下计时，口算继续 | stop
把专注停了，口算继续做 | stop
这个测验我不做了，停掉吧 | stop
现在进度怎么样了 | status
还有几分钟啊 | status
还剩几分钟了 | status
进度如何 | status
孩子要练加法，开个6分钟的测验 | quiz | 360 | addition
我女儿要做加法练习，开5分钟 | quiz | 300 | addition
儿子想练减法，帮他开个8分钟的测验 | quiz | 480 | subtraction
写作业四十分钟，开始 | start | 2400 | 写作业
读书半小时，现在开始 | start | 1800 | 读书
新专注：吉他，35分钟 | start | 2100 | 吉他
我在画画，帮我计时一个小时 | start | 3600 | 画画
孩子要练乘法10分钟 | help
数学考试复习一个小时 | start | 3600 | 数学考试复习
背乘法表20分钟 | start | 1200 | 背乘法表
除法测验五分钟 | help
停一下专注 | stop
新概念英语30分钟 | start | 1800 | 新概念英语
新专注：尤克里里，20分钟 | start | 1200 | 尤克里里
来个 quiz 吧，乘法 5 分钟 | quiz | 300 | multiplication
考一下九九乘法表，两分钟 | quiz | 120 | multiplication
数学小测试 6 分钟 | quiz | 360 | mixed
随便学点什么一小时 | ask
我在练琴，计时四十分钟 | start | 2400 | 练琴
专心背单词20分钟 | start | 1200 | 背单词
定个时，25分中 | ask
全都停掉 | stop
两个都停 | stop
把口算停了，计时继续 | stop
进度咋样 | status
还剩几分钟呀 | status
女儿要练减法，帮她开个5分钟的 | quiz | 300 | subtraction
弟弟在做口算10分钟 | help
内容是整理照片，专注四十分钟 | start | 2400 | 整理照片
项目是报销，计时半小时 | start | 1800 | 报销
主题是英语听力，专注25分钟 | start | 1500 | 英语听力
任务：写周报，30分钟 | start | 1800 | 写周报
专注一小时，内容：改讲稿 | start | 3600 | 改讲稿
科目是物理，专注45分钟 | start | 2700 | 物理
我在看小说，帮我计时二十分钟 | start | 1200 | 看小说
我要改讲稿，开个专注半小时 | start | 1800 | 改讲稿
准备面试，专注一个小时 | start | 3600 | 准备面试
练毛笔字，计时40分钟 | start | 2400 | 练毛笔字
专注25分钟，我要写周报 | start | 1500 | 写周报
我得准备面试，帮我开个一小时的专注 | start | 3600 | 准备面试
孩子写作业，帮忙开个三十分钟的专注计时 | start | 1800 | 写作业
爷爷想练太极，帮他开个半小时专注 | start | 1800 | 练太极
女儿要背课文，帮她计时15分钟 | start | 900 | 背课文
弟弟在写作业 | help
爷爷在练太极 | help
宝宝睡着了，专注四十分钟，我要记账 | start | 2400 | 记账
明天要交报告了啊啊啊 快开专注一小时 | start | 3600 | -
明天考试了，帮我开专注半小时 | start | 1800 | -
下午要开会，先专注30分钟 | start | 1800 | -
好累啊，专注20分钟吧 | start | 1200 | -
来个30分钟吧 | ask
就来20分钟 | ask
来一个25分钟 | ask
开个15分钟 | ask
那就45分钟，开始吧 | ask
退出quiz | stop
测验不用了 | stop
专注先结束 | stop
临时有事，先停了吧 | stop
有人找我，专注停一下 | stop
两个都在跑，把测验停了，专注留着 | stop
测验停掉，专注别动 | stop
测验结束，计时保留 | stop
先把专注停了，测验继续 | stop
退出测验 | stop
专注提前结束 | stop
提前结束计时 | stop
做7分钟的数学题 | quiz | 420 | mixed
来10分钟口算题 | quiz | 600 | mixed
做几道加法题，五分钟 | quiz | 300 | addition
乘法口诀5分钟 | quiz | 300 | multiplication
专注15分钟口算 | quiz | 900 | mixed
哈哈我的猫踩了键盘 | help
哈哈哈 | help
好的 | help
去倒杯水 | help
嗯嗯 | help
发错了 | help
吃饭去了 | help
專注25分鐘 | start | 1500 | -
開始計時一小時 | start | 3600 | -
專注半小時讀書 | start | 1800 | 讀書
停止測驗 | stop
測驗還剩多久 | status
還剩幾分鐘 | status
練習乘法五分鐘 | quiz | 300 | multiplication
幫我開個二十分鐘的專注 | start | 1200 | -
結束專注 | stop
計時器停止 | stop
看書四十分鐘 | start | 2400 | 看書
來個口算測驗，十分鐘 | quiz | 600 | mixed
專注二十五分鐘寫報告 | start | 1500 | 寫報告
嗨，专注25分钟 | start | 1500 | -
你好，帮我计时半小时，谢谢 | start | 1800 | -
早上好！专注一小时写代码 | start | 3600 | 写代码
麻烦了，开个专注40分钟 | start | 2400 | -
专注30分钟谢谢啦 | start | 1800 | -
专注半小时看书，拜托了 | start | 1800 | 看书
专注20分钟哈 | start | 1200 | -
亲，帮我开个专注一小时 | start | 3600 | -
主题：背单词，专注20分钟 | start | 1200 | 背单词
内容是复习英语，计时一小时 | start | 3600 | 复习英语
专注30分钟，任务是整理房间 | start | 1800 | 整理房间
今天的任务是写论文，专注两小时 | start | 7200 | 写论文
专注40分钟准备面试 | start | 2400 | 准备面试
帮我开个专注，45分钟，写周报 | start | 2700 | 写周报
我在练吉他，专注半小时 | start | 1800 | 练吉他
我想看小说，开一个二十分钟的专注 | start | 1200 | 看小说
要写周报了，专注半小时 | start | 1800 | 写周报
我得改简历，计时四十分钟 | start | 2400 | 改简历
妈妈想练瑜伽，帮她开个半小时的专注 | start | 1800 | 练瑜伽
妹妹在练琴，帮忙计时半小时 | start | 1800 | 练琴
我弟弟在专注半小时 | help
孩子在写作业，已经写了一小时 | help
快迟到了啊啊啊，专注15分钟 | start | 900 | -
救命 明天要考试 开个一小时专注 | start | 3600 | -
来个一小时吧 | ask
那来25分钟吧 | ask
先来20分钟 | ask
测验可以结束了 | stop
专注不用了 | stop
计时先停了吧 | stop
家里来客人了，先停了 | stop
测验停了吧，专注继续 | stop
把quiz停了，计时别停 | stop
算了测验不做了，专注继续 | stop
口算练习七分钟 | quiz | 420 | mixed
来五分钟数学题 | quiz | 300 | mixed
减法题8分钟 | quiz | 480 | subtraction
专注8分钟做减法 | quiz | 480 | subtraction
做数学作业半个钟 | start | 1800 | 做数学作业
我出去一下 | help
哦哦 | help
收到 | help
你好呀，开个专注30分钟，写周报 | start | 1800 | 写周报
嗨嗨，帮我计时45分钟，背单词 | start | 2700 | 背单词
今天要做PPT，专注一小时 | start | 3600 | 做PPT
任务是背古诗，计时20分钟 | start | 1200 | 背古诗
主题：学Python，专注1小时 | start | 3600 | 学Python
专注半小时，内容是读论文 | start | 1800 | 读论文
我在准备考研，帮我开个两小时专注 | start | 7200 | 准备考研
要复习英语了，开个专注40分钟 | start | 2400 | 复习英语
我得写实验报告，专注90分钟 | start | 5400 | 写实验报告
弟弟要练字，帮他计时半小时 | start | 1800 | 练字
女儿在练钢琴，帮她计时四十分钟 | start | 2400 | 练钢琴
儿子写作业呢，开个一小时专注 | start | 3600 | 写作业
老公在睡觉，我专注一小时 | start | 3600 | -
烦死了 明天考试 开一个小时专注 | start | 3600 | -
啊啊啊要来不及了，专注半小时 | start | 1800 | -
马上要开会了，专注15分钟先 | start | 900 | -
开个25分钟吧 | ask
就25分钟吧，开始 | ask
先来个15分钟 | ask
专注可以停了 | stop
先不测了，停吧 | stop
孩子哭了，计时先停一下 | stop
有点事，测验先结束吧 | stop
测验关了吧，专注继续 | stop
退出专注 | stop
测验提前结束吧 | stop
来8分钟的数学题 | quiz | 480 | mixed
刷10分钟口算题 | quiz | 600 | mixed
加减法练习6分钟 | quiz | 360 | mixed
做5分钟的乘法口算 | quiz | 300 | multiplication
口算题，十分钟 | quiz | 600 | mixed
背单词和做加法20分钟 | help
专注30分钟练乘法和背课文 | help
幫我計時四十五分鐘，寫作業 | start | 2700 | 寫作業
專注一個小時 | start | 3600 | -
番茄鐘25分鐘 | start | 1500 | -
停止計時 | stop
還有多久 | status
測驗停止，專注繼續 | stop
來個五分鐘的乘法測驗 | quiz | 300 | multiplication
考考我減法三分鐘 | quiz | 180 | subtraction
開始專注，半小時，讀書 | start | 1800 | 讀書
哈哈哈哈笑死 | help
我去拿快递 | help
喝口水先 | help
😂😂 | help
弟弟明天考试 | help
明天，专注一小时 | help
下午三点，专注半小时 | help
十分钟后开个专注 | help
我妹妹要专注25分钟，帮她开 | help
开个25分钟的专注，看书 | start | 1500 | 看书
专注模式45分钟，学英语 | start | 2700 | 学英语
帮我设置一个30分钟的番茄钟来写作业 | start | 1800 | 写作业
给我开一个专注，时长40分钟，内容是做PPT | start | 2400 | 做PPT
计时30分钟用来背单词 | start | 1800 | 背单词
专注25分钟，写作文呢 | start | 1500 | 写作文
我要专注写代码一个小时 | start | 3600 | 写代码
番茄钟走起，25分钟，学习 | start | 1500 | 学习
半小时专注，练口语 | start | 1800 | 练口语
开专注，一个小时 | start | 3600 | -
整理房间，计时20分钟 | start | 1200 | 整理房间
专注时长一小时，写论文 | start | 3600 | 写论文
帮忙计时25分钟哦，谢谢 | start | 1500 | -
麻烦您开一个半小时的专注，我要复习 | start | 5400 | 复习
专注半小时（看书） | start | 1800 | 看书
25分钟，看书 | start | 1500 | 看书
开个专注，25分钟，内容：背单词 | start | 1500 | 背单词
我要边听歌边写作业，专注一小时 | start | 3600 | 边听歌边写作业
帮我计个时，四十分钟，我要跑步 | start | 2400 | 跑步
写完作业再说吧，先专注半小时 | help
停一停 | stop
不计时了 | stop
测验到此为止 | stop
把计时器关掉吧，谢谢 | stop
专注那个先停掉 | stop
口算就做到这吧 | stop
专注二三十分钟 | ask
看书一两个小时 | ask
专注20-30分钟 | ask
学习三四十分钟 | ask
专注两三分钟 | ask
先测验5分钟，再看书 | help
专注半小时然后做口算 | help
看书20分钟，接着做乘法题 | help
考试复习30分钟 | start | 1800 | 考试复习
明天考试了，考考我乘法十分钟 | quiz | 600 | multiplication
嗨，来个5分钟的口算 | quiz | 300 | mixed
先看书，再测验5分钟 | help
请开始一个30分钟的专注时段，用于阅读 | start | 1800 | 阅读
番茄钟一个，25分钟，主题英语 | start | 1500 | 英语
麻烦计时一小时，我要做饭 | start | 3600 | 做饭
学习时间到了，开专注45分钟 | start | 2700 | -
专注一下，25分钟 | start | 1500 | -
给我来个25分钟的专注，我要学数学 | start | 1500 | 学数学
25分钟专注走起 | start | 1500 | -
专注个半小时 | start | 1800 | -
专注30分钟，谢谢你哦 | start | 1800 | -
计时到哪了 | status
专注还有多少分钟 | status
还差多久 | status
测验还要多久结束 | status
练7的乘法口诀5分钟 | quiz | 300 | multiplication
计时器挺好玩的 | help
哈哈 | help
专注一个半钟头 | start | 5400 | -
专注一小时一刻钟 | start | 4500 | -
专注25分钟，等下开始 | help
作业好多啊，帮我专注一小时 | start | 3600 | -
要考四级了，开个专注两小时背单词 | start | 7200 | 背单词
等会要上课，专注20分钟预习一下 | help
老师让我们练字，专注半小时 | help
我想专心看会儿书，计时40分钟 | start | 2400 | 看会儿书
能帮我开个专注吗，45分钟，复习数学 | start | 2700 | 复习数学
专注，25分钟，谢谢 | start | 1500 | -
开始专注吧，一小时 | start | 3600 | -
帮我开一个专注，时长半小时 | start | 1800 | -
专注20分钟，科目：化学 | start | 1200 | 化学
测验先停一下吧，我去接个电话 | stop
计时器可以关了 | stop
不用计时了，谢谢 | stop
专注就到这里吧 | stop
把两个都关了 | stop
口算停了吧，计时还要 | stop
請幫我開始專注三十分鐘，謝謝 | start | 1800 | -
搞个专注半小时 | start | 1800 | -
整一个25分钟的专注 | start | 1500 | -
来一发专注30分钟 | start | 1800 | -
弄个计时器，二十分钟 | start | 1200 | -
设个20分钟的倒计时 | start | 1200 | -
倒计时十分钟 | start | 600 | -
计时器调到30分钟 | start | 1800 | -
專注結束 | stop
計時還剩多少 | status
幫我計時半小時，我要練琴 | start | 1800 | 練琴
來個10分鐘的加法練習 | quiz | 600 | addition
"""

HELD_OUT_PEOPLE_EN = """
start a 25 minute pomodoro for thesis writing | start | 1500 | thesis writing
pomodro 25 mins | start | 1500 | -
focus for thirty minutes | start | 1800 | -
please start a focus session of 50 minutes | start | 3000 | -
half an hour of reading pls | start | 1800 | reading
can u do 15 min for meditation | start | 900 | meditation
begin a focus timer, 40 minutes, piano practice | start | 2400 | piano practice
2 hours of studying | start | 7200 | studying
start focusing for an hour on taxes | start | 3600 | taxes
set a timer for 10 minutes | start | 600 | -
foucs 20 min | start | 1200 | -
I'd like to focus for forty five minutes please | start | 2700 | -
25 min pomodoro: homework | start | 1500 | homework
start 5 minuts | start | 300 | -
a quarter of an hour of tidying up | start | 900 | tidying up
focus on math homework for 20 minutes | start | 1200 | math homework
one hour deep work | start | 3600 | deep work
Start pomodoro 25min | start | 1500 | -
focus for 1.5 hours | start | 5400 | -
lets focus for twenty minutes on slides | start | 1200 | slides
start a focus session please | ask
pomodoro time! | ask
I need to focus on chemistry | ask
help me focus | ask
start the timer | ask
focus for 48 hours | range
pomodoro for 2 days | range
quiz me on multiplication, 10 minutes | quiz | 600 | multiplication
3 minutes of addition practice please | quiz | 180 | addition
subtraction quiz 5 min | quiz | 300 | subtraction
can I do a mixed quiz for five minutes | quiz | 300 | mixed
I want to practice times tables for 2 minutes | quiz | 120 | multiplication
addition quiz | ask
give me a subtraction quiz | ask
stop pls | stop
cancel the pomodoro | stop
end session | stop
stop the timer now | stop
i give up, stop | stop
enough, stop the quiz | stop
how much longer? | status
how many minutes are left | status
time remaining? | status
what's running right now | status
am I still in a focus session? | status
will it rain tomorrow | help
please don't start a timer | help
I stopped eating sugar | help
what can this thing do | help
note: call the dentist at 3 | help
read my notes | help
I focused for 2 hours yesterday | help
how long is a pomodoro supposed to be? | help
thank you so much | help
don't stop | help
can you stop me from procrastinating lol | help
"""

HELD_OUT_PEOPLE_ZH = """
番茄钟 二十五分钟 | start | 1500 | -
帮我开始专注25分钟 | start | 1500 | -
专注半小时写代码 | start | 1800 | 写代码
我要学习四十五分钟 | start | 2700 | 学习
开一个一小时的番茄钟 | start | 3600 | -
focus 20分钟 | start | 1200 | -
开始pomodoro半小时 | start | 1800 | -
读书一刻钟 | start | 900 | 读书
请给我计时十五分钟，谢谢 | start | 900 | -
写报告两小时 | start | 7200 | 写报告
专注 50 分钟 | start | 3000 | -
来个二十分钟的专注 | start | 1200 | -
做作业30min | start | 1800 | 做作业
开始番茄中25分钟 | start | 1500 | -
冥想十分钟 | start | 600 | 冥想
帮我定个时，四十分钟 | start | 2400 | -
专注一个小时，复习数学 | start | 3600 | 复习数学
开始专注90秒 | start | 90 | -
一个半小时的深度工作 | start | 5400 | 深度工作
开始专注 | ask
来个番茄钟吧 | ask
我要背单词了，帮我计时 | ask
帮我focus一下 | ask
专注48小时 | range
计时三天 | range
做十分钟乘法题 | quiz | 600 | multiplication
加法练习三分钟 | quiz | 180 | addition
我想练减法，5分钟 | quiz | 300 | subtraction
来个混合运算测验，两分钟 | quiz | 120 | mixed
出点乘法题给我，十分钟 | quiz | 600 | multiplication
练习加法 | ask
考我乘法口诀 | ask
停下 | stop
停止 | stop
结束吧 | stop
不要计时了 | stop
取消番茄钟 | stop
不练了 | stop
stop一下 | stop
还剩多久？ | status
还有几分钟 | status
剩下多少时间了 | status
现在在专注吗？ | status
计时器还在跑吗 | status
今天会下雨吗 | help
先不要开始 | help
我停止喝咖啡了 | help
怎么用？ | help
帮我记个笔记：周五开会 | help
打开我的笔记 | help
我上午专注了两个小时 | help
番茄工作法是什么 | help
好的谢谢 | help
不要停 | help
我停不下来刷手机 | help
"""
