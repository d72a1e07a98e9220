# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twentieth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh20``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the git history nor the rows of
any other corpus (the tables of test_corpus.py and of every corpus_people*.py) — only the eighth fresh
set's module docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``,
``_check`` in test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in
test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to 24 hours,
quiz up to 1 hour; Notes has no timed start). It did not search the repository for phrases and did not
run the parser or the measure on its rows. Each row was labelled with what a careful human assistant
would do with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear request is
``ask`` or ``help``, never a guess. It is measured once, by someone else, after all rows were written, and
no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions, jokes, negations, past tense, hypotheticals, someone else's doing, plans for later, things it
cannot do — reminders, alarms, pausing, Notes, music, quizzes on anything but the four arithmetic kinds —
scores reported and greetings). An activity is written as the person would want it labelled, cut from
the request in their words.

Written as new voices — a lifeguard off duty, a logistics planner, a Korean student writing Chinese, an
Indian English speaker ("do the needful", "kindly", "itself"), a dad coaching times tables at breakfast,
an actor learning lines, a night-school student, a person in a noisy café, a landscape gardener, a radio
host before air, a person who types everything in one long run-on sentence and one who types in
fragments across commas — on phones and laptops: typos, slang, numbers as words and digits, emoji, mixed
zh/en in both tables, some traditional characters, context first, durations before or after the verb.
The mix, per language: about a third focus starts (with and without activity), a fifth quizzes (with and
without a kind, durations in various forms), stops (also with both running, stopping one and keeping the
other), status questions, a fifth that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH20_EN = """
off duty finally, give me 25 min of focus for my CPR recert reading | start | 1500 | CPR recert reading
kindly start focus timer for 45 minutes itself, I am doing vendor reconciliation | start | 2700 | vendor reconciliation
do the needful and put one hour focus for GST filing | start | 3600 | GST filing
focus 20m, running lines for act two | start | 1200 | running lines for act two
40 minute focus pls, learning my lines for thursday | start | 2400 | learning my lines for thursday
start a forty five minute focus | start | 2700 | -
gimme twenty mins of focus | start | 1200 | -
focus timer 1hr | start | 3600 | -
pls focus mode 10 minutes 🙏 | start | 600 | -
an hour and a half of deep focus on the warehouse layout | start | 5400 | warehouse layout
set focus 2 hrs for thesis | start | 7200 | thesis
exam week. focus timer 3 hours, revision | start | 10800 | revision
quarter of an hour focus, emails | start | 900 | emails
block 1h30 of focus for route planning | start | 5400 | route planning
ok im off the chair, 20 minutes focus on the first aid manual | start | 1200 | first aid manual
night class in an hour, need 45 min of focus for my accounting homework first | start | 2700 | accounting homework
focus for 25 minutes on my monologue | start | 1500 | monologue
so i just got back from the site and i have to draw up the planting plan for the hendersons and i keep getting distracted by my phone so can you start a focus for like 50 minutes on the planting plan thanks | start | 3000 | planting plan
ok, focus, 35 min, budget spreadsheet | start | 2100 | budget spreadsheet
sorry its so loud in here, can u start a 25 min focus, editing chapter 3 | start | 1500 | editing chapter 3
on air in 20, give me a 15 minute focus to prep the rundown | start | 900 | prep the rundown
between jobs, 30 min focus on the quote for the Patel garden | start | 1800 | quote for the Patel garden
pls start focus 30 min, 谢谢 | start | 1800 | -
three quarters of an hour focusing on payroll | start | 2700 | payroll
Focus session: 55 minutes. Task: shipment schedule for Q1 | start | 3300 | shipment schedule for Q1
can you start a 90 minute focus for my stats assignment | start | 5400 | stats assignment
time to grind 💪 focus 1 hour 20 min, chem revision | start | 4800 | chem revision
i need to focus on the hedge pruning schedule for 40 mins | start | 2400 | hedge pruning schedule
start me a 15-minute focus before the call | start | 900 | -
Kindly initiate focus of 2 hours for the audit documents | start | 7200 | audit documents
focus mode on, 1 hr, no distractions, memorising scene 4 | start | 3600 | memorising scene 4
start focus timer now for 100 minutes | start | 6000 | -
lemme get a 5 min focus real quick | start | 300 | -
give me a focus block, thirty minutes, for the fleet maintenance report | start | 1800 | fleet maintenance report
focus on reading for half an hour | start | 1800 | reading
I have a presentation at 3. focus 45 mins on slides | start | 2700 | slides
25min focus sesh for spanish homework | start | 1500 | spanish homework
Start a 2.5 hour focus on the grant application | start | 9000 | grant application
focus for an hour on practising my script | start | 3600 | practising my script
times tables quiz 5 min | quiz | 300 | multiplication
quiz me on multiplication for ten minutes | quiz | 600 | multiplication
addition quiz, 3 minutes | quiz | 180 | addition
can u do a subtraction quiz for 4 mins | quiz | 240 | subtraction
maths quiz 15 min | quiz | 900 | mixed
quick mental arithmetic quiz, two minutes | quiz | 120 | mixed
start a 5 minute times-table quiz for my daughter before school | quiz | 300 | multiplication
kindly start one arithmetic quiz of 10 minutes | quiz | 600 | mixed
half an hour mixed arithmetic quiz | quiz | 1800 | mixed
an hour long maths quiz please | quiz | 3600 | mixed
minus quiz 90 seconds | quiz | 90 | subtraction
1 min multiplication quiz go | quiz | 60 | multiplication
eight minute quiz, multiplying | quiz | 480 | multiplication
quiz: addition, 12 minutes | quiz | 720 | addition
test me on my times tables for 7 minutes | quiz | 420 | multiplication
arithmetic quiz 20min pls 😅 | quiz | 1200 | mixed
lets do a quiz on subtracting, 5 mins | quiz | 300 | subtraction
maths revision before night school: quiz me for 25 minutes, mix of everything | quiz | 1500 | mixed
quiz 10 minutes | quiz | 600 | mixed
practice quiz, adding numbers, 4 minutes | quiz | 240 | addition
3 min times tables quiz while the toast is on | quiz | 180 | multiplication
a quiz of multiplication for 15 minutes itself | quiz | 900 | multiplication
plus quiz for my son, six minutes | quiz | 360 | addition
stop the focus | stop
kill the timer, they called me back in | stop
end the quiz, keep the focus timer going | stop
stop quiz but leave the timer running | stop
ok cancel the focus, customer just walked in | stop
enough, stop it | stop
we're live in 2, end focus now | stop
kindly stop the timer itself | stop
quit the quiz | stop
stop both of them | stop
finish the quiz early pls, kids gotta catch the bus | stop
how long left? | status
is the focus still running | status
how much time on the quiz | status
what's running right now | status
how many mins till my focus ends | status
am i still in focus mode? | status
time check | status
kindly tell how much time is remaining | status
sorry couldnt hear, is the timer done? | status
how long have I got left on the times tables | status
what can the focus timer do? | help
can the quiz do division? | help
division quiz 5 min | help
spelling quiz 10 minutes | help
remind me to move the sprinklers in 40 minutes | help
set an alarm for 5:30 | help
pause the focus, back in 5 | help
add 'call the depot' to my notes | help
did a 50 minute focus this morning, felt great | help
don't start anything yet | help
no focus timer today thanks | help
my wife is doing a 20 min focus in the other room | help
tomorrow morning I'll want a 2 hour focus | help
if I started a 30 min quiz would it keep my score? | help
got 27/30 on the times tables!! | help
hello 👋 | help
good morning from the pool deck | help
lol imagine a 5 hour focus | help
at 8pm start a 1 hour focus | help
thank you | help
how do I change the quiz questions? | help
play some music for 30 min | help
what's 7 times 8 | help
that last quiz was brutal lol | help
start a focus session please | ask
let's do 30 minutes | ask
give me twenty minutes | ask
quiz me on times tables | ask
I need to focus | ask
45 min pls | ask
focus for 30 hours | range
maths quiz for 2 hours | range
lock me in focus mode for two days straight | range
times tables quiz 90 minutes | range
focus 25 hours on the move plan | range
"""

HELD_OUT_FRESH20_ZH = """
专注25分钟 | start | 1500 | -
帮我开个专注，四十五分钟，写周报 | start | 2700 | 写周报
开始专注半小时，背台词 | start | 1800 | 背台词
下班了，专注一个小时学日语 | start | 3600 | 学日语
我要专注一个半小时做排班表 | start | 5400 | 做排班表
專注二十分鐘，看書 | start | 1200 | 看書
給我開專注三十分鐘 | start | 1800 | -
开一个20min的专注，复习高数 | start | 1200 | 复习高数
番茄钟25分钟 | start | 1500 | -
来个番茄钟，四十分钟，改方案 | start | 2400 | 改方案
专注模式 两小时 写论文 | start | 7200 | 写论文
请帮我开始专注40分钟，我学习汉语 | start | 2400 | 学习汉语
我想专注三十分钟做作业 | start | 1800 | 做作业
专注一刻钟整理邮件 | start | 900 | 整理邮件
帮我专注五十分钟画设计图 | start | 3000 | 画设计图
给我专注三刻钟，准备直播稿 | start | 2700 | 准备直播稿
离上节目还有半小时，先专注二十分钟准备串词 | start | 1200 | 准备串词
开始专注 1h 看合同 | start | 3600 | 看合同
专注10分钟 🙏 | start | 600 | -
咖啡馆好吵，帮我开个专注二十五分钟，改简历 | start | 1500 | 改简历
专注一小时十五分钟排物流路线 | start | 4500 | 排物流路线
今天夜校要交作业，专注九十分钟写会计作业 | start | 5400 | 写会计作业
开始focus 30分钟 | start | 1800 | -
请开启专注计时，时长六十分钟，内容：背单词 | start | 3600 | 背单词
专注三个小时复习考试 | start | 10800 | 复习考试
帮忙开个专注 十五分钟 | start | 900 | -
我先专注35分钟，做花园设计 | start | 2100 | 做花园设计
專心讀書一個鐘頭 | start | 3600 | 讀書
好，专注，二十分钟，对账 | start | 1200 | 对账
我刚下班累死了但是明天有救生员复训考试所以帮我开一个四十分钟的专注复习急救知识吧谢谢 | start | 2400 | 复习急救知识
专注 两个小时 | start | 7200 | -
开个25分钟番茄，练台词 | start | 1500 | 练台词
麻烦帮我计时专注四十五分钟 | start | 2700 | -
专注半个钟，回客户消息 | start | 1800 | 回客户消息
开始专注八小时 做年终盘点 | start | 28800 | 做年终盘点
focus二十分钟 写code | start | 1200 | 写code
专注十二分钟 | start | 720 | -
起来了，专注一小时，写歌词 | start | 3600 | 写歌词
開始專注 45 min，寫報告 | start | 2700 | 寫報告
乘法口算测验5分钟 | quiz | 300 | multiplication
来个加法测验，三分钟 | quiz | 180 | addition
减法小测 十分钟 | quiz | 600 | subtraction
出一套口算题，做十五分钟 | quiz | 900 | mixed
考考我九九乘法表，五分钟 | quiz | 300 | multiplication
早饭时间，给孩子来个乘法口诀测验，三分钟 | quiz | 180 | multiplication
数学小测验 20分钟 | quiz | 1200 | mixed
算术测验半小时 | quiz | 1800 | mixed
加减乘混合口算测验，十分钟 | quiz | 600 | mixed
做个减法练习测验，4分钟 | quiz | 240 | subtraction
心算测验一分钟 | quiz | 60 | mixed
來個乘法測驗十分鐘 | quiz | 600 | multiplication
请给我开一个加法口算测验，时间八分钟 | quiz | 480 | addition
两分钟乘法快问快答 | quiz | 120 | multiplication
口算测验一个小时 | quiz | 3600 | mixed
quiz一下 加法 5min | quiz | 300 | addition
我要做减法题，十二分钟 | quiz | 720 | subtraction
帮儿子开个乘法测验 七分钟 | quiz | 420 | multiplication
测验：乘法，六分钟 | quiz | 360 | multiplication
口算练习15分钟，随便出 | quiz | 900 | mixed
来一轮三分钟的减法测验 | quiz | 180 | subtraction
给我出四十五分钟的算术题 | quiz | 2700 | mixed
老师说我要多练习，请给我做数学测验十分钟 | quiz | 600 | mixed
停止专注 | stop
结束测验，专注继续 | stop
把计时关掉 | stop
不做了，停 | stop
取消番茄钟 | stop
停掉测验，专注别停 | stop
客户来了，先结束专注 | stop
两个都停了吧 | stop
停止測驗 | stop
stop一下专注 | stop
还剩多久？ | status
专注还在计时吗 | status
测验还有几分钟 | status
现在在跑什么 | status
我专注多久了 | status
還剩幾分鐘 | status
时间到了没 | status
计时器还开着吗 | status
请问剩余时间是多少 | status
测验剩多少时间了 | status
这个专注计时器怎么用？ | help
测验能出除法吗 | help
除法测验十分钟 | help
考我英语单词十分钟 | help
四十分钟后提醒我收衣服 | help
明早六点叫我起床 | help
暂停一下专注 | help
帮我在笔记里记一下：明天进货 | help
我上午专注了两个小时 | help
先别开始 | help
今天不想专注 | help
我女儿在做十分钟的口算 | help
晚上八点帮我开专注一小时 | help
如果专注到一半退出会怎样 | help
乘法测验我考了28分！ | help
你好 | help
哈哈哈 专注一百年 | help
谢谢啦 | help
放首歌 | help
7乘8等于多少 | help
明天再测验吧 | help
刚才那个测验太难了 | help
你好呀，我是韩国留学生，汉语不太好 | help
开始专注 | ask
来十五分钟 | ask
我想专心一下 | ask
出几道题考考我 | ask
给我半小时 | ask
二十分钟，开始吧 | ask
专注三十个小时 | range
乘法测验两个小时 | range
帮我专注两天 | range
口算测验九十分钟 | range
专注25小时 | range
"""
