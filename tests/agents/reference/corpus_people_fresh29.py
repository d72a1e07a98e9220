# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twenty-ninth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh29``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, git history or diffs, nor the
rows of any other corpus (test_corpus.py tables, any corpus_people*.py rows) — only the eighth fresh set's
module docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``, ``_check`` in
test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in test_corpus_people.py, their
bodies only) and the apps' manifests for their bounds (focus up to 24 hours, quiz up to 1 hour; Notes has
no start). It did not search the repository for phrases and did not run the parser or the measure on its
rows. Each row was labelled with what a careful human assistant would do with the two timed apps installed
(a focus timer and an arithmetic quiz): an unclear request is ``ask`` or ``help``, never a guess. It is
measured once, by someone else, after all rows were written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app, including a length said alone
with no app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not
act: questions, jokes, greetings, negations, past tense, hypotheticals, someone else's doing, plans for
later, things it cannot do — reminders, alarms, pausing, music, Notes, quizzes on anything but the four
arithmetic kinds, division included — and scores reported). An activity is written as the person would
want it labelled, cut from the request in their words.

Written as new voices — a cheesemaker, a librarian, a Hong Kong secondary student writing traditional
characters (and some Cantonese), a dentist's receptionist, a runner timing intervals, a parent of twins
practising sums, a person who writes very short commands, a person who hedges everything, an engineer who
writes numbers with units attached (25m, 1h, 90s), a retired professor, a person who apologises and
thanks in the same message, someone who mixes up quiz and focus words — typing on phones and laptops:
typos, slang, numbers as words and digits, emoji, mixed zh/en in both tables, some traditional characters,
context first, durations before or after the verb. The mix, per language: about a third focus starts, a
fifth quizzes, stops (also with both running, stopping one and keeping the other), status, a fifth that
must not act, a few asks and out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH29_EN = """
ok curds are draining, give me a 40 minute focus on labelling the wheels | start | 2400 | labelling the wheels
start a focus for 1h on the brine logs | start | 3600 | brine logs
could u start a 15min focus for washing rinds | start | 900 | washing rinds
Could you start a 45-minute focus session for shelving returns? | start | 2700 | shelving returns
focus timer, 30 minutes, weeding the reference section | start | 1800 | weeding the reference section
Focus: 1 hour. Task: cataloguing the map collection. | start | 3600 | cataloguing the map collection
between patients — 15 min focus to call back the recall list | start | 900 | call back the recall list
Start focus 20 minutes insurance claims | start | 1200 | insurance claims
30 min focus to confirm tomorrow's appointments | start | 1800 | confirm tomorrow's appointments
90s timer pls | start | 90 | -
focus 30 min on my training plan for the half marathon | start | 1800 | training plan for the half marathon
focus 25 | start | 1500 | -
focus 1h | start | 3600 | -
25m deep work | start | 1500 | deep work
gimme 10 min focus 🙏 | start | 600 | -
I think maybe I'd like to, if it's not too much trouble, start a focus of about 50 minutes? for the grant report | start | 3000 | grant report
perhaps a focus session, say 35 minutes, for reading | start | 2100 | reading
pomodoro 25m: code review | start | 1500 | code review
focus 1h30m refactor auth module | start | 5400 | refactor auth module
start focus 90m — flaky test triage | start | 5400 | flaky test triage
focus 2h on the migration script | start | 7200 | migration script
I should like to begin a focus period of three quarters of an hour, devoted to my correspondence. | start | 2700 | correspondence
Kindly start a timer of one hour and a quarter for the manuscript revisions. | start | 4500 | manuscript revisions
sorry to bother, could you start a 20 minute focus for my email backlog? thank you so much! | start | 1200 | email backlog
Sorry!! thanks in advance — focus for half an hour please | start | 1800 | -
Start a focus session for an hour and a half | start | 5400 | -
need to concentrate for 45 mins on tax forms 😩 | start | 2700 | tax forms
lemme focus for twenty mins | start | 1200 | -
set focus 10 minutes, stretching | start | 600 | stretching
focsu for 30 min on vocab | start | 1800 | vocab
start a 5 hour focus, board exam revision | start | 18000 | board exam revision
timer 50 min for the quarterly inventory plz | start | 3000 | quarterly inventory
24h focus for the hackathon | start | 86400 | hackathon
ok 25 minutes of focus for piano scales go | start | 1500 | piano scales
focus session pls 1 hr, sorting the donation boxes | start | 3600 | sorting the donation boxes
start pomodoro 25 min | start | 1500 | -
deep focus 3h, thesis chapter 2 | start | 10800 | thesis chapter 2
Focus for seventy-five minutes on the newsletter | start | 4500 | newsletter
start focus timer 8 minutes | start | 480 | -
focus for 2.5 hours on the audit | start | 9000 | audit
A focus of 55 minutes, please, for my lecture notes. | start | 3300 | lecture notes
⏱️ 25 min focus, essay | start | 1500 | essay
focus 30 min 谢谢 | start | 1800 | -
times tables quiz 10 min | quiz | 600 | multiplication
can you start a 15 minute addition quiz for the twins | quiz | 900 | addition
5 min subtraction quiz pls | quiz | 300 | subtraction
quiz me for 20 minutes | quiz | 1200 | mixed
arithmetic quiz, half an hour | quiz | 1800 | mixed
start a quiz, multiplication, 12 min | quiz | 720 | multiplication
10m quiz mixed | quiz | 600 | mixed
Could we do a quick mental arithmetic quiz? Ten minutes, maybe. | quiz | 600 | mixed
minus quiz for 7 minutes | quiz | 420 | subtraction
I'd like to practise my times tables for a quarter of an hour | quiz | 900 | multiplication
quiz 1h multiplication | quiz | 3600 | multiplication
start the focus— no, the quiz! 10 min, adding | quiz | 600 | addition
drill me on subtraction for 8 mins | quiz | 480 | subtraction
mixed arithmetic quiz 25 minutes | quiz | 1500 | mixed
quiz 90s multiplication | quiz | 90 | multiplication
give me a 3 minute quiz on adding numbers | quiz | 180 | addition
sorry, could I have a multiplication quiz for 20 min? thanks! | quiz | 1200 | multiplication
math quiz for forty minutes | quiz | 2400 | mixed
twins want times tables again — 6 minutes please | quiz | 360 | multiplication
start a 2 minute take-away quiz | quiz | 120 | subtraction
quiz time! 15 min of multiplying | quiz | 900 | multiplication
start a timed maths quiz of 30 minutes | quiz | 1800 | mixed
quizz me addition 10min | quiz | 600 | addition
quiz 10 min 乘法 please | quiz | 600 | multiplication
stop | stop
stop the timer | stop
end the quiz, keep the focus running | stop
cancel my focus session pls | stop
ok I'm done, stop the quiz | stop
kill the timer but leave the quiz going | stop
patient's here, stop the focus | stop
Please end the focus. Sorry, and thank you! | stop
abort quiz | stop
enough, turn off the timer | stop
stop both | stop
how long left? | status
time remaining on the quiz? | status
is my focus still going? | status
what's running right now | status
how much longer on the timer | status
am I still in a focus? | status
How many minutes are left, if you don't mind? | status
status | status
is the quiz still on or did it end | status
when does my focus end? | status
hi there | help
what can the quiz app do? | help
how long is a pomodoro normally? | help
remind me to flip the cheese at 4pm | help
set an alarm for 6:30 tomorrow | help
pause the timer for a sec | help
add 'order more rennet' to my notes | help
quiz me on capital cities for 10 min | help
can you quiz me on French vocab for 15 minutes | help
quiz me on division for 10 minutes | help
I got 17 out of 20!! | help
don't start a timer, I'm just looking | help
I did a 2 hour focus yesterday | help
if I started a 30 min quiz, would it save my score? | help
my colleague is doing a 25 min focus | help
tomorrow morning I'll do an hour of focus | help
start a focus at 3pm for 1 hour | help
thanks, that's all | help
why did my timer stop? | help
haha the quiz says 7x8 is 56, which it is lol | help
what's 12 times 13? | help
no no don't start the quiz | help
Could you tell me whether the focus timer makes a sound at the end? | help
lol focus? in this economy? | help
play some lo-fi for 30 min | help
start a focus session | ask
let's do 30 minutes | ask
quiz me | ask
20 min please | ask
can you start a timer for my essay | ask
set something for 45m | ask
begin a multiplication quiz | ask
1h | ask
focus for 30 hours straight | range
90 minute times tables quiz | range
quiz for 2 hours, mixed | range
start a 48h focus for the game jam | range
arithmetic quiz, 75 minutes | range
focus 3 days | range
"""

HELD_OUT_FRESH29_ZH = """
专注25分钟 | start | 1500 | -
开始专注半小时，写周报 | start | 1800 | 写周报
帮我开一个四十五分钟的专注，整理书目 | start | 2700 | 整理书目
專注一小時溫習中文 | start | 3600 | 溫習中文
開個25分鐘專注，做數學功課 | start | 1500 | 做數學功課
我要专注1h，写代码 | start | 3600 | 写代码
专注90min，debug | start | 5400 | debug
麻烦你帮我计时专注二十分钟，打扰了，谢谢！ | start | 1200 | -
番茄钟25分钟 | start | 1500 | -
来个一个半小时的专注，看论文 | start | 5400 | 看论文
帮我开始专注，时长40分钟，内容是核对库存 | start | 2400 | 核对库存
专注一刻钟 | start | 900 | -
集中精力两小时复习考研英语 | start | 7200 | 复习考研英语
我想专注三个钟头写小说 | start | 10800 | 写小说
开始专注 15 分钟 回病人电话 | start | 900 | 回病人电话
可能…大概专注半个小时吧？读书 | start | 1800 | 读书
专注50分钟 整理牙科预约 | start | 3000 | 整理牙科预约
开始一个专注，一小时，用来备课 | start | 3600 | 备课
专注 2h 跑模型 | start | 7200 | 跑模型
帮我开个专注，十分钟，冥想 | start | 600 | 冥想
專注四十分鐘 | start | 2400 | -
给我开个一个小时的focus，写PPT | start | 3600 | 写PPT
专注35分钟做奶酪记录 | start | 2100 | 做奶酪记录
请开始专注二十五分钟，我要练琴 | start | 1500 | 练琴
专注时间设为45分钟，任务：翻译合同 | start | 2700 | 翻译合同
開始專注一個鐘，做物理練習 | start | 3600 | 做物理練習
专注 30m 看书 | start | 1800 | 看书
focus 20分钟 背单词 | start | 1200 | 背单词
专注八个小时整理档案 | start | 28800 | 整理档案
专注一个半钟头 | start | 5400 | -
马上专注20分钟，刷题 | start | 1200 | 刷题
开专注 5 分钟 | start | 300 | -
专注二十四小时 | start | 86400 | -
请帮我开始专注七十五分钟，写毕业论文 | start | 4500 | 写毕业论文
专注45分钟复习笔记，不好意思麻烦了，谢谢 | start | 2700 | 复习笔记
开个30分钟专注，预习课文 | start | 1800 | 预习课文
专注一小时二十分钟 | start | 4800 | -
专注十分钟🍅 | start | 600 | -
乘法测验10分钟 | quiz | 600 | multiplication
来个加法小测，五分钟 | quiz | 300 | addition
做减法练习15分钟 | quiz | 900 | subtraction
出一个20分钟的口算测验 | quiz | 1200 | mixed
考考我，十分钟，乘法 | quiz | 600 | multiplication
給我一個乘數測驗，十五分鐘 | quiz | 900 | multiplication
双胞胎要练加法，开个8分钟的测验 | quiz | 480 | addition
算术测验半小时 | quiz | 1800 | mixed
quiz 十分钟 加减乘混合 | quiz | 600 | mixed
来一组九九乘法表，5分钟 | quiz | 300 | multiplication
减法quiz 12分钟 | quiz | 720 | subtraction
开始数学小测验，时间一小时 | quiz | 3600 | mixed
出题考我加法，二十分钟 | quiz | 1200 | addition
帮孩子开个乘法口算，3分钟 | quiz | 180 | multiplication
不好意思，能给我开个减法测验吗？十分钟就好，谢谢！ | quiz | 600 | subtraction
开个专注…啊不是，是测验，乘法，10分钟 | quiz | 600 | multiplication
测验 90秒 加法 | quiz | 90 | addition
来个混合运算测验，25分钟 | quiz | 1500 | mixed
考我四十分钟的心算 | quiz | 2400 | mixed
開始測驗，減數，十分鐘 | quiz | 600 | subtraction
做个乘法quiz，一刻钟 | quiz | 900 | multiplication
小测验 7 分钟 | quiz | 420 | mixed
练一下加法吧，十五分钟 | quiz | 900 | addition
停 | stop
停止专注 | stop
结束测验，专注继续 | stop
把计时器关了 | stop
取消专注吧 | stop
測驗唔做了，停咗佢 | stop
不好意思，帮我停一下测验，谢谢 | stop
专注先停掉，测验别动 | stop
结束 | stop
stop一下专注 | stop
两个都停了 | stop
还剩多久？ | status
专注还有几分钟？ | status
测验还在进行吗 | status
现在在跑什么 | status
計時器仲有幾耐？ | status
我的专注结束了没 | status
还有多长时间 | status
状态 | status
测验剩多少时间了 | status
专注什么时候结束？ | status
你好 | help
测验是怎么计分的？ | help
番茄钟一般多长？ | help
下午三点提醒我翻奶酪 | help
明天早上七点叫我起床 | help
暂停一下计时器 | help
把“买凝乳酶”记到笔记里 | help
考我英语单词十分钟 | help
出个除法测验，十分钟 | help
我刚才考了18分，满分20 | help
别开计时器，我随便看看 | help
昨天我专注了三个小时 | help
如果我开一个两小时的专注，中途能退出吗？ | help
我同事在做25分钟的专注 | help
明天下午我要专注两小时 | help
晚上八点开始专注一小时 | help
谢谢，没事了 | help
为什么我的测验突然结束了？ | help
哈哈哈 7乘8等于56我居然答错了 | help
12乘13等于多少？ | help
不要开始测验！ | help
专注计时结束会响铃吗？ | help
放30分钟白噪音 | help
我女儿上周做了乘法测验 | help
考我历史题二十分钟 | help
来二十分钟吧 | ask
开始专注 | ask
考考我 | ask
开个计时 | ask
半小时 | ask
开始乘法测验 | ask
搞个45分钟 | ask
帮我开个定时，写作业 | ask
专注30个小时 | range
乘法测验两个小时 | range
做一个90分钟的算术测验 | range
专注两天 | range
開個48小時專注 | range
测验一个半小时，加法 | range
"""
