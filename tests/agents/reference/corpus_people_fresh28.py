# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""Fresh held-out set number 28 for the reference Agent, written on 2026-12-06 (issue 36) by a helper session
(branch ``i36-fresh28``) writing blind: it did not open the grammar (anything under agents/), the apps'
phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the rows of any other corpus (the tables
of test_corpus.py nor of any corpus_people*.py), nor git log, git show or diffs. It read only the eighth
fresh set's module docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``,
``_check`` in test_corpus.py; ``_measure``, ``_label`` and the ``_DETERMINER`` regex in
test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to 24 hours,
quiz up to 1 hour; Notes has no timed start). It did not search the repository for phrases and did not run
the parser or the measure on these rows. Each row was labelled with what a careful human assistant would do
with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear request is ``ask`` or
``help``, never a guess. It is measured once, by someone else, after all rows were written, and no row is
changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named, or when more than one is). Rows that are not a start carry only ``text | intent``. Intents: start,
quiz, stop, status, ``ask`` (a start with no clear duration, or one that could be either app — a length
said alone with no app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that
must not act: questions about the apps, jokes, negations, past tense, hypotheticals, someone else's doing,
plans for later, things it cannot do — reminders, alarms, pausing, notes, scheduling, quizzes on anything
but the four arithmetic kinds — scores reported, greetings, small talk). An activity is written as the
person would want the timer labelled, cut from the request in their words; a length with a piece of work
and no app named is a focus start.

Written as new voices — a zookeeper, a hostel receptionist, a violin student in a conservatory, a crypto
trader, a Sichuan grandmother using voice input, a British pensioner, an Australian surfer writing
casually, a Chinese primary-school teacher planning a class, a pilot on a layover, a nurse coming off
nights, a person fighting autocorrect, someone writing one request per line of a short numbered list —
typing on phones and laptops: typos, slang, numbers as words and digits, emoji, mixed zh/en in both tables,
some traditional characters in zh, context first, durations before or after the verb. The mix, per
language: about a third focus starts (with and without an activity, up to the 24-hour bound), a fifth
quizzes (with and without a kind, durations in minutes, seconds, quarters and halves), stops (also with
both running, stopping one and keeping the other), status questions, a fifth that must not act, a few asks
and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH28_EN = """
zookeeper here 🦒 start a 40 min focus on the penguin feeding log | start | 2400 | penguin feeding log
focus timer 25 mins pls | start | 1500 | -
Could you set me up a focus block of an hour and a half for the check-in paperwork? | start | 5400 | check-in paperwork
violin scales, 20 minutes, go | start | 1200 | violin scales
start focusing for twenty five minutes | start | 1500 | -
lemme focus 15 min on the chart analysis | start | 900 | chart analysis
I'd like to concentrate on my crossword for three quarters of an hour, please start the timer | start | 2700 | crossword
2 hrs of revision, start a focus timer | start | 7200 | revision
start a 50 minute focus: flight plan review | start | 3000 | flight plan review
pilot on a layover here. 1h focus on type rating study please | start | 3600 | type rating study
just off nights, need 30 min for my charting, start a focus | start | 1800 | charting
focus 45m | start | 2700 | -
set a foucs timer for 10 minuets | start | 600 | -
Stat a focus sesh for 35 min for my essay | start | 2100 | essay
timer for focus, 1 hour, activity: tax return | start | 3600 | tax return
Right, I shall focus on the allotment accounts for twenty minutes, if you'd be so kind as to start the clock | start | 1200 | allotment accounts
oi start a focus for 30 mins, gotta sort the surf school bookings | start | 1800 | surf school bookings
90 minute focus block pls | start | 5400 | -
focus: 2 hours 15 minutes | start | 8100 | -
Start focus 12h for the hackathon | start | 43200 | hackathon
could you time me 40 minutes of focused reading | start | 2400 | reading
focus 45 min on Kreutzer etudes before my lesson | start | 2700 | Kreutzer etudes
teacher here – start a 20-minute focus for lesson planning | start | 1200 | lesson planning
ok focus mode on for 1 hr 👍 | start | 3600 | -
start the focus timer at 25 min, label it "inbox zero" | start | 1500 | inbox zero
three hours focus on the whitepaper please | start | 10800 | whitepaper
Focus session, twenty minutes, for knitting | start | 1200 | knitting
set focus for half an hour | start | 1800 | -
i need to focus for 5 minutes, start it | start | 300 | -
begin a 1.5 hour focus on the reptile house logs | start | 5400 | reptile house logs
Can you start a focus timer for 8 hours of coding? | start | 28800 | coding
24 hour focus for the exam marathon, let's go | start | 86400 | exam marathon
Focus for 1 min just to try it | start | 60 | -
start a focus: 40 minutes, bow technique | start | 2400 | bow technique
Please begin a focus period of forty minutes for letters to the grandchildren. | start | 2400 | letters to the grandchildren
25 min focus on the night audit | start | 1500 | night audit
set a 2 hour focus on my thesis | start | 7200 | thesis
foucs on the budget spreadsheet for 30 mins pls | start | 1800 | budget spreadsheet
1 hour 😤 focus 🔥 | start | 3600 | -
1. focus 25 min on emails | start | 1500 | emails
ok start a 20 min focus, 谢谢 | start | 1200 | -
for the next ten minutes i wanna focus on the tide charts, timer on | start | 600 | tide charts
quiz me on times tables for 5 minutes | quiz | 300 | multiplication
start a 10 min arithmetic quiz | quiz | 600 | mixed
addition quiz, 3 mins | quiz | 180 | addition
Could I have a subtraction drill for a quarter of an hour? | quiz | 900 | subtraction
mental maths quiz 20 minutes please | quiz | 1200 | mixed
give me a 2 minute multiplication quiz 🧠 | quiz | 120 | multiplication
I want to try the addition quiz myself before class, 15 min | quiz | 900 | addition
quiz, mixed sums, 30 mins | quiz | 1800 | mixed
one hour maths quiz | quiz | 3600 | mixed
Do a quick 5-minute minus quiz | quiz | 300 | subtraction
timed multiplication practice, 12 minutes | quiz | 720 | multiplication
arithmetic quiz for 45 seconds go | quiz | 45 | mixed
quizz me on adding for ten mins | quiz | 600 | addition
I'd fancy a little sums quiz, ten minutes, multiplying only | quiz | 600 | multiplication
maths quiz 7 min | quiz | 420 | mixed
need to sharpen my mental math before the market opens: 10 min multiplication quiz | quiz | 600 | multiplication
1/2 hour subtraction quiz | quiz | 1800 | subtraction
quiz: addition and subtraction, 8 minutes | quiz | 480 | mixed
run a times-table quiz for 90 seconds | quiz | 90 | multiplication
quiz me 20 min | quiz | 1200 | mixed
let's do a maths quiz, 25 minutes, any kind | quiz | 1500 | mixed
3. arithmetic quiz 5 min | quiz | 300 | mixed
start a multiplication quiz lasting a quarter hour | quiz | 900 | multiplication
stop the timer | stop
ok cancel that focus, guest at the desk | stop
end the quiz, I'm done | stop
stop the quiz but keep my focus timer going | stop
kill the focus one, leave the quiz running | stop
abort abort 🛑 | stop
That's enough for now, please stop the session. | stop
stpo the focus | stop
quit the maths quiz pls | stop
Emergency on the ward, end focus now | stop
cancel timer | stop
I give up on this quiz, stop it | stop
how long left? | status
is the focus timer still running? | status
how much time remains on my quiz | status
what's running right now? | status
Time check pls | status
how many minutes do I have left on the focus | status
am I still in a focus session? | status
when does my timer end? | status
is the quiz still on | status
status? | status
How's my timer getting on, dear? | status
wots left on the clock mate | status
what does the focus timer do? | help
can the quiz do spelling? | help
start a 10 minute spelling quiz | help
remind me to feed the otters at 3pm | help
set an alarm for 6am | help
pause the timer for a sec | help
add "buy rosin" to my notes | help
I focused for 2 hours yesterday | help
don't start a timer yet | help
if I started a 30 min focus, would the quiz stop? | help
my roommate is doing a 25 min pomodoro | help
tomorrow morning I'll do an hour of focus | help
I got 18 out of 20 on the quiz! | help
hello! | help
g'day | help
tell me a joke about timers | help
what's 7 times 8? | help
quiz me on capital cities for 10 min | help
thanks, that's all | help
my pupils will do the quiz later for 10 minutes | help
I wish I could focus for 8 hours straight lol | help
how long can a focus session be? | help
schedule a focus at 9pm | help
What's the price of bitcoin? | help
start a focus session | ask
let's do 30 minutes | ask
quiz me on multiplication | ask
start the timer please | ask
twenty minutes pls | ask
can we go for an hour | ask
focus for 30 hours | range
2 hour maths quiz | range
start a 90 minute multiplication quiz | range
focus timer 48h for the trading week | range
set focus for 25 hrs | range
"""

HELD_OUT_FRESH28_ZH = """
开始专注25分钟 | start | 1500 | -
帮我开个专注，半小时，看账本 | start | 1800 | 看账本
我要专注一个小时写论文 | start | 3600 | 写论文
专注四十五分钟，练小提琴音阶 | start | 2700 | 练小提琴音阶
来个专注计时，二十分钟，备课 | start | 1200 | 备课
帮我开个专注嘛 四十分钟 我要纳鞋底 | start | 2400 | 纳鞋底
专注模式开一个半小时 | start | 5400 | -
開始專注三十分鐘 | start | 1800 | -
專注兩小時，讀書 | start | 7200 | 讀書
设个专注计时器 15min | start | 900 | -
focus 一下，30分钟，复习英语 | start | 1800 | 复习英语
飞行员倒时差中，专注一小时看航图 | start | 3600 | 看航图
刚下夜班，专注20分钟写交班记录 | start | 1200 | 写交班记录
专注 1h 盯盘 | start | 3600 | 盯盘
给我计时专注三刻钟 | start | 2700 | -
开始专注，时长十分钟 | start | 600 | -
我想专心背单词二十五分钟 | start | 1500 | 背单词
专注8小时写代码，今天必须搞完 | start | 28800 | 写代码
开个番茄钟 25分钟 | start | 1500 | -
专注五分钟试试 | start | 300 | -
帮我开始专注计时：一小时十五分钟，整理动物饲养记录 | start | 4500 | 整理动物饲养记录
专注二十四小时 | start | 86400 | -
专注90分钟 | start | 5400 | -
开专注 40分钟 做PPT | start | 2400 | 做PPT
我要专注学习两个钟头 | start | 7200 | 学习
专注半个钟 练字 | start | 1800 | 练字
请开始一次时长为五十分钟的专注，内容是核对入住名单 | start | 3000 | 核对入住名单
专注一小时半，看合同 | start | 5400 | 看合同
专注 25 分钟 💪 | start | 1500 | -
開個專注計時四十分鐘 練琴 | start | 2400 | 練琴
专心工作三小时，帮我计时 | start | 10800 | 工作
开始专主二十分钟 | start | 1200 | -
1. 专注30分钟 写周报 | start | 1800 | 写周报
专注一个钟，读报纸 | start | 3600 | 读报纸
我想集中精力看书四十分钟 | start | 2400 | 看书
开启专注模式，时长六十分钟，做数学作业 | start | 3600 | 做数学作业
定个专注 12 小时 黑客松 | start | 43200 | 黑客松
专注十二分钟 | start | 720 | -
接下来二十分钟我要专心做教案，帮我开专注 | start | 1200 | 做教案
出一套乘法题，限时五分钟 | quiz | 300 | multiplication
来个口算测验 10分钟 | quiz | 600 | mixed
加法测验，三分钟 | quiz | 180 | addition
做十五分钟减法小测 | quiz | 900 | subtraction
考考我九九乘法表，两分钟 | quiz | 120 | multiplication
算术测验 半小时 | quiz | 1800 | mixed
开一个一小时的数学小测验 | quiz | 3600 | mixed
我想做个加法小测 二十分钟 | quiz | 1200 | addition
減法測驗十分鐘 | quiz | 600 | subtraction
上课前我自己先试一下，乘法测验 8 分钟 | quiz | 480 | multiplication
口算 quiz 5 min | quiz | 300 | mixed
混合运算测验二十五分钟 | quiz | 1500 | mixed
来一轮乘法 quiz，一刻钟 | quiz | 900 | multiplication
测一下我的心算，45秒 | quiz | 45 | mixed
出题考我减法 七分钟 | quiz | 420 | subtraction
数学测验，四十分钟 | quiz | 2400 | mixed
做加减法测验十分钟 | quiz | 600 | mixed
小测验 乘法 20min | quiz | 1200 | multiplication
开个算术小测 三分钟 | quiz | 180 | mixed
出点加法题给我做，限时一刻钟 | quiz | 900 | addition
2. 乘法测验 10分钟 | quiz | 600 | multiplication
心算测验开始，12分钟 | quiz | 720 | mixed
来个算术测验吧，一分半钟 | quiz | 90 | mixed
停止专注 | stop
不做了，结束测验 | stop
把计时器关掉 | stop
停掉测验，专注继续 | stop
专注先停了，测验别动 | stop
有客人来了，停专注 | stop
取消专注计时 | stop
停止測驗 | stop
病人按铃了，专注马上停 | stop
别计时了 | stop
把 quiz 关了 | stop
终止当前专注 | stop
还剩多久？ | status
专注还在计时吗 | status
测验还有几分钟 | status
现在在运行什么 | status
剩几分钟了 | status
我的专注什么时候结束？ | status
計時器還在跑嗎？ | status
现在什么状态 | status
还有多长时间啊 | status
测验结束了没 | status
看看时间还剩多少 | status
专注计时器怎么用？ | help
测验能考英语单词吗？ | help
来个十分钟的英语单词测验 | help
提醒我下午三点喂熊猫 | help
定个明早六点的闹钟 | help
暂停一下计时 | help
帮我记一下：明天买松香 | help
我昨天专注了三个小时 | help
先别开始计时 | help
如果我开了专注，测验会停吗？ | help
我同事在做番茄钟 | help
明天早上我要专注一小时 | help
测验我考了18分，满分20 | help
你好呀 | help
讲个笑话 | help
七乘八等于多少？ | help
考考我历史知识 十分钟 | help
谢谢，没事了 | help
下节课让学生们做十分钟测验 | help
要是能专注八小时就好了 | help
专注最长能设多久？ | help
晚上九点帮我开专注 | help
不想开专注 | help
比特币现在多少钱 | help
吃了吗您 | help
开始专注 | ask
来二十分钟吧 | ask
考考我乘法 | ask
帮我计个时 | ask
搞一个小时 | ask
开个测验 | ask
专注三十个小时 | range
两小时的乘法测验 | range
专注48小时 | range
算术测验九十分钟 | range
专注25小时 | range
"""
