# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""An eighteenth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh18``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the git history nor the rows of
any other corpus (the tables of test_corpus.py and every corpus_people*.py). It read only the eighth fresh
set's module docstring (for the format and the rules), the bodies of the measuring helpers (``_rows``,
``_kind`` and ``_check`` in test_corpus.py; ``_measure``, ``_label`` and the ``_DETERMINER`` pattern in
test_corpus_people.py) and the apps' manifests for their bounds (focus up to 24 hours, quiz up to 1 hour;
Notes has no timed start). It did not search the repository for phrases and did not run the parser or the
measure on these rows. Each row was labelled with what a careful human assistant would do with the two
timed apps installed (a focus timer and an arithmetic quiz): an unclear request is ``ask`` or ``help``,
never a guess. It is measured once, by someone else, after all rows were written, and no row is changed
after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions about the apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for
later or a start at a later time, things it cannot do — reminders, alarms, pausing, Notes, quizzes on
anything but the four arithmetic kinds, division included — scores reported, greetings and thanks). An
activity is written as the person would want the timer labelled, cut from the request in their own words
(their spelling kept); a leading determiner is dropped as the measure drops it.

Written as new voices — a veterinary nurse, a train conductor, a church organist, a cybersecurity analyst
on call, a returning adult student, a mum waiting at football practice, a music producer, a translator of
legal documents, a primary teacher running a class quiz on the board, a retired accountant doing puzzles,
a person with dyslexia spelling phonetically, people typing in their second language with word-order
slips — on phones and laptops: typos, slang, numbers as words and digits, emoji, mixed zh/en in both
tables, some traditional characters, context first, durations before or after the verb. The mix, per
language: about a third focus starts (with and without an activity), a fifth quizzes (with and without a
kind, durations in several forms), stops (also with both running, stopping one and keeping the other),
status questions, a fifth that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH18_EN = """
vet nurse here, got 20 min before the next consult, start a focus on discharge notes | start | 1200 | discharge notes
focus timer 45 mins pls — drug inventory | start | 2700 | drug inventory
Start a 25 minute focus | start | 1500 | -
on my break between stations, give me fifteen minutes of focus for the rota | start | 900 | rota
focus for an hour on the Bach fugue please | start | 3600 | Bach fugue
on call tonight, 90 min focus block for log review | start | 5400 | log review
timer: 2 hrs focus, threat report | start | 7200 | threat report
can u start a focus 4 me, 30 min, reading ch 5 | start | 1800 | reading ch 5
pls start focus thirty-five minutes | start | 2100 | -
sitting in the car at football practice, 40 min focus on the school forms | start | 2400 | school forms
50 min focus: mixing the drum bus | start | 3000 | mixing the drum bus
Please start a focus session of 1 hour 15 minutes for the lease translation | start | 4500 | lease translation
focus 1h30 contract clauses | start | 5400 | contract clauses
set me a focus for a quarter of an hour | start | 900 | -
start focus, 10 minutes | start | 600 | -
foucs 20 mins plz | start | 1200 | -
plees start a focus sesion for haf an our | start | 1800 | -
can u stat a fokus for twenty minits on my homwork | start | 1200 | homwork
Start please focus of 45 minutes for my study of grammar | start | 2700 | study of grammar
For one hour focus please, learning English | start | 3600 | learning English
👀 focus 25m | start | 1500 | -
25 min pomodoro pls, emails | start | 1500 | emails
Focus mode, 3 hours, tax return | start | 10800 | tax return
I'd like to focus for forty minutes on the crossword | start | 2400 | crossword
start an 8 hour focus for revision | start | 28800 | revision
start focus 12 min | start | 720 | -
45-minute focus on lesson plans please | start | 2700 | lesson plans
ok let's go, focus timer 55 minutes | start | 3300 | -
begin a focus session: 1 hour, organ voluntary | start | 3600 | organ voluntary
hymn practice, focus 30 min | start | 1800 | hymn practice
start a focus for two and a half hours | start | 9000 | -
Focus for 24 hours straight | start | 86400 | -
pomodoro 25 for incident writeup | start | 1500 | incident writeup
focus 1 hr on GED maths | start | 3600 | GED maths
focus 20min then I pick up the kids | start | 1200 | -
start focus now for 15 minutes - invoice batch | start | 900 | invoice batch
Could you run a focus timer for 100 minutes | start | 6000 | -
focus sesh 30 min: beat for the client 🎧 | start | 1800 | beat for the client
start a 5 min focus to triage alerts | start | 300 | triage alerts
Timer for focusing 2 hours please, the translation of the deposition | start | 7200 | translation of the deposition
focus 20 min 谢谢 | start | 1200 | -
times tables quiz for 5 minutes | quiz | 300 | multiplication
start a 10 minute addition quiz for my class | quiz | 600 | addition
quiz me on subtraction for 3 mins | quiz | 180 | subtraction
arithmetic quiz 15 minutes | quiz | 900 | mixed
give me a mental maths quiz, two minutes | quiz | 120 | mixed
quick multiplication drill, 90 seconds | quiz | 90 | multiplication
start a maths quiz of half an hour, mixed | quiz | 1800 | mixed
start a 20 min quiz, adding up | quiz | 1200 | addition
take-aways quiz on the board for the kids, 8 minutes | quiz | 480 | subtraction
quiz: multiplying, 4 min | quiz | 240 | multiplication
can u quiz me maths 10 minit | quiz | 600 | mixed
I want practice plus sums for 7 minutes | quiz | 420 | addition
1 hour arithmetic quiz | quiz | 3600 | mixed
mixed sums quiz 12 mins | quiz | 720 | mixed
subtraction quiz, a quarter hour | quiz | 900 | subtraction
Start a quiz for 6 minutes | quiz | 360 | mixed
let's do a 5 minute multiplication quiz while the kettle boils | quiz | 300 | multiplication
Drill me on times tables for thirty seconds | quiz | 30 | multiplication
maths quiz 1h | quiz | 3600 | mixed
quizz me, multiplicaton, 5min | quiz | 300 | multiplication
arith quiz 45 sec | quiz | 45 | mixed
Quiz of times table, please, during 10 minutes | quiz | 600 | multiplication
maths quiz for 2 hours | range
focus for 30 hours | range
start a focus timer for 2 days | range
multiplication quiz 90 minutes | range
focus 25 hours on the thesis | range
ok 20 mins, go | ask
start a focus session pls | ask
can I get a quiz going | ask
give me 45 minutes | ask
start a times tables quiz | ask
focus on the sermon notes | ask
i wanna focus for a bit | ask
stop the timer | stop
end the focus, the spaniel in kennel 3 is being sick | stop
cancel quiz | stop
stop the quiz but leave the focus running | stop
kill the focus timer, keep the quiz going | stop
ok im done, stop | stop
stp the foucs pls | stop
Abort the focus, pager went off | stop
please end the quiz now | stop
turn off the focus thing | stop
Stop focus. Quiz stays. | stop
how long left? | status
how much time is left on my focus | status
is the timer still going? | status
what's running right now | status
how many minutes till the quiz ends | status
time remaining? | status
still focusing or did it end? | status
is my quiz still on | status
hw long til break | status
what am I timing at the moment? | status
what can you do? | help
how does the quiz work? | help
remind me at 6 to pick up Ella from football | help
set an alarm for 7am | help
pause the timer for a sec | help
add buy cat food to my notes | help
I did a 30 minute focus yesterday | help
don't start a timer yet | help
if I had an hour free I'd focus on the ledger | help
my son is doing a 10 min times tables quiz at school | help
tomorrow I'll do a 2 hour focus | help
quiz me on French vocab for 10 minutes | help
a division quiz for 5 minutes | help
got 18 out of 20! | help
hiya 👋 | help
why do they call it pomodoro lol | help
tell me a joke about organists | help
no, not a quiz | help
thanks! | help
can the focus timer go longer than a day? | help
what's 7 times 8 | help
my colleague started a focus for 45 min | help
I wish I could focus for 3 hours straight | help
start a 25 min focus at 3pm | help
quiz me on the periodic table | help
I'm going to focus for 40 min after lunch | help
is 25 minutes a good length for a pomodoro? | help
"""

HELD_OUT_FRESH18_ZH = """
帮我开个专注，二十分钟，写病历 | start | 1200 | 写病历
专注半小时 | start | 1800 | -
开始专注45分钟，翻译合同 | start | 2700 | 翻译合同
我要专注一个小时练管风琴 | start | 3600 | 练管风琴
值班中，开一个90分钟的专注，看日志 | start | 5400 | 看日志
番茄钟25分钟 | start | 1500 | -
给我计时专注一刻钟 | start | 900 | -
專注三十分鐘，寫作業 | start | 1800 | 寫作業
来个专注 40min 做beat | start | 2400 | 做beat
开专注两个小时，复习考试 | start | 7200 | 复习考试
在球场边等孩子，专注二十五分钟看书 | start | 1500 | 看书
专注1小时20分钟 | start | 4800 | -
开始一个三刻钟的专注 | start | 2700 | -
请帮我开始专注，时间一个半小时，内容是审合同 | start | 5400 | 审合同
专注 15 分钟 回邮件 | start | 900 | 回邮件
专注模式开十分钟 | start | 600 | -
帮忙开个专注计时，50分钟，做账 | start | 3000 | 做账
我想专注两个半小时写论文 | start | 9000 | 写论文
开始专注 2h | start | 7200 | -
专注八小时，整理档案 | start | 28800 | 整理档案
专注24小时 | start | 86400 | -
focus 一下，半个钟 | start | 1800 | -
开个pomodoro，25分钟，做PPT | start | 1500 | 做PPT
开始專注一小時，背單詞 | start | 3600 | 背單詞
专注三十五分钟吧 | start | 2100 | -
帮我专注一下，二十分钟，准备教案 | start | 1200 | 准备教案
现在开始专注，时长一百分钟 | start | 6000 | -
开一个55分钟的专注，练琴 | start | 3300 | 练琴
专注12分钟 | start | 720 | -
我要开始专注了，一个钟头，做数独 | start | 3600 | 做数独
开始专注吧，时间3小时，报税 | start | 10800 | 报税
专注五分钟处理告警 | start | 300 | 处理告警
开专注 四十分钟 😤 | start | 2400 | -
请开始一段专注，六十分钟，校对译稿 | start | 3600 | 校对译稿
给我开个专注 20min，学英语 | start | 1200 | 学英语
专注一小时十五分 | start | 4500 | -
专注计时开始，一个小时，听网课 | start | 3600 | 听网课
我现在要专注写歌词，给我45分钟 | start | 2700 | 写歌词
专注时间：二十分钟，事情：写检讨 | start | 1200 | 写检讨
来个乘法测验，五分钟 | quiz | 300 | multiplication
出一套加法题考我，十分钟 | quiz | 600 | addition
减法测验三分钟 | quiz | 180 | subtraction
口算测验十五分钟 | quiz | 900 | mixed
给我来个算术小测，两分钟 | quiz | 120 | mixed
九九乘法表测验，一分半 | quiz | 90 | multiplication
数学测验半小时 | quiz | 1800 | mixed
给班上学生来一个加法小测，八分钟 | quiz | 480 | addition
考考我减法，4分钟 | quiz | 240 | subtraction
做个混合运算测验，12分钟 | quiz | 720 | mixed
測驗乘法十分鐘 | quiz | 600 | multiplication
开个quiz，乘法，5min | quiz | 300 | multiplication
算术测验一小时 | quiz | 3600 | mixed
来个口算测验，一刻钟，加法 | quiz | 900 | addition
减法小测20分钟 | quiz | 1200 | subtraction
开始测验，六分钟 | quiz | 360 | mixed
乘法口诀考我三十秒 | quiz | 30 | multiplication
随便出点算术题考我，十分钟 | quiz | 600 | mixed
我想做七分钟的加法测验 | quiz | 420 | addition
来一个45秒的速算测验 | quiz | 45 | mixed
给孩子开个减法测验，时间十分钟 | quiz | 600 | subtraction
乘法 quiz 一小时 | quiz | 3600 | multiplication
专注三十个小时 | range
算术测验两小时 | range
开个专注，两天 | range
乘法测验九十分钟 | range
专注25小时复习 | range
整二十分钟吧 | ask
开始专注 | ask
来个测验 | ask
给我半小时 | ask
帮我开个乘法测验 | ask
我想专注一会儿 | ask
停止专注 | stop
结束测验 | stop
把计时停了 | stop
停掉测验，专注继续 | stop
专注关掉，测验别停 | stop
不做了，停吧 | stop
取消专注，来急诊了 | stop
結束專注 | stop
stop一下测验 | stop
够了，结束吧 | stop
把番茄钟关了 | stop
终止当前的测验 | stop
还剩多久？ | status
专注还有几分钟 | status
计时还在走吗 | status
现在在运行什么 | status
测验还剩多少时间 | status
還有多久結束 | status
我的专注结束了没 | status
现在是在专注还是在测验？ | status
离休息还有多久 | status
剩余时间？ | status
你能做什么？ | help
测验怎么玩？ | help
六点提醒我接孩子 | help
定个明早七点的闹钟 | help
暂停一下计时 | help
帮我在笔记里记一下买猫粮 | help
我昨天专注了两个小时 | help
先别开始计时 | help
要是有空我就专注一小时 | help
我女儿在学校做了十分钟的乘法测验 | help
明天下午我要专注三个小时 | help
考我英语单词十分钟 | help
来个除法测验，五分钟 | help
我答对了18道，共20道 | help
你好呀 | help
为什么叫番茄钟？ | help
讲个笑话 | help
不要测验 | help
谢谢！ | help
专注最长能设多久？ | help
7乘8等于多少 | help
同事刚开了个45分钟的专注 | help
下午三点开始专注25分钟 | help
考我历史题 | help
午饭后我打算专注四十分钟 | help
"""
