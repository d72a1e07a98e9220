# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A nineteenth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh19``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the git history nor the rows of
any other corpus (the tables of test_corpus.py, the rows of any corpus_people*.py) — only the eighth fresh
set's module docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``,
``_check`` in test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in
test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to 24 hours,
quiz up to 1 hour; Notes has no start). It did not search the repository for phrases and did not run the
parser or the measure on these rows. Each row was labelled with what a careful human assistant would do
with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear request is ``ask``
or ``help``, never a guess. It is measured once, by someone else, after all rows were written, and no row
is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions about the apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for
later, things it cannot do — reminders, alarms, pausing, Notes, quizzes on anything but the four
arithmetic kinds — scores reported and greetings). An activity is written as the person would want it
labelled, cut from the request in their words.

Written as new voices — an ER receptionist between rushes, a potter with clay on her hands, a
15-year-old doing olympiad prep, a commuter on a train with bad signal (some messages cut off), a
mindfulness coach, a mechanic dictating by voice with greasy hands, a civil servant writing formal
requests, a speed-runner, a parent whose child's homework is in another language, a university
admissions officer reading essays, a content moderator, and someone who mixes emoji into words — typing
on phones and laptops: typos, slang, numbers as words and digits, emoji, mixed zh/en in both tables,
some traditional characters in the Chinese one, context first, durations before or after the verb.
The mix, per language: about a third focus starts (with and without an activity), a fifth quizzes (with
and without a named kind, durations in various forms), stops (also with both running, stopping one and
keeping the other), status questions, a fifth that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH19_EN = """
quiet 20 min before the next rush, start a focus for charting | start | 1200 | charting
Triage desk is calm for once. Focus timer 15 minutes, insurance forms | start | 900 | insurance forms
hands covered in clay lol start a 40 min timer for trimming | start | 2400 | trimming
glazing session, 1 hour please | start | 3600 | glazing
ok doing olympiad combinatorics for 45 mins, start the focus | start | 2700 | olympiad combinatorics
focus 1h30 on past IMO problems | start | 5400 | past IMO problems
signal is awful, quickly: focus 35 min, reading | start | 2100 | reading
train wifi dying. 50 min focus on the grant proposal | start | 3000 | grant proposal
Let's begin a gentle 10 minute focus for breathwork | start | 600 | breathwork
Start a twelve-minute focus session — body scan practice | start | 720 | body scan practice
hey start the focus timer for forty five minutes brake job on the civic | start | 2700 | brake job on the civic
ok agent start focus thirty minutes for the oil change paperwork | start | 1800 | oil change paperwork
Please initiate a focus period of ninety minutes for the drafting of the quarterly report. | start | 5400 | drafting of the quarterly report
I would be grateful if you could start a focus session of two hours for reviewing the tender documents. | start | 7200 | reviewing the tender documents
grinding the any% route, start a 2 hour focus | start | 7200 | grinding the any% route
focus 55 min, practicing the skip in level 3 | start | 3300 | practicing the skip in level 3
set a 30 min focus for his German homework | start | 1800 | German homework
start a 20 min focus, helping with her French worksheet | start | 1200 | helping with her French worksheet
start focus 50 minutes: essay batch 3 | start | 3000 | essay batch 3
Start a 45 min focus for reading applications | start | 2700 | reading applications
queue's insane, give me 25 minutes of focus on the flagged queue | start | 1500 | flagged queue
focus for an hour please, reviewing appeals | start | 3600 | reviewing appeals
🔥 start focus 30 min for my essay 🔥 | start | 1800 | essay
pls focus mode ✨ 1 hour ✨ | start | 3600 | -
can you start a 25-min focus real quick | start | 1500 | -
I need to concentrate for three quarters of an hour | start | 2700 | -
focus: 1 hr 15 min, thesis chapter 2 | start | 4500 | thesis chapter 2
set focus to 8 hours, night shift admin | start | 28800 | night shift admin
start 90 seconds focus, just testing | start | 90 | -
let's focus for 24 hours straight, hackathon | start | 86400 | hackathon
25 minutes focus for email, go | start | 1500 | email
start a forty min focus on laundry folding lol | start | 2400 | laundry folding
time to study, start focus timer 1 hour for anatomy | start | 3600 | anatomy
study block: 2.5 hours, organic chem | start | 9000 | organic chem
focsu 20min | start | 1200 | -
Start focusing. Duration: 35 minutes. Task: invoice reconciliation. | start | 2100 | invoice reconciliation
start a focus for half an hour, wedging clay | start | 1800 | wedging clay
put me in focus for 10 mins 🙏 | start | 600 | -
Kicking off 3 hours of deep work on the migration script, start the timer | start | 10800 | migration script
start focus 30 min for 中文作业 | start | 1800 | 中文作业
Olympiad warmup: quiz me on multiplication for 5 minutes | quiz | 300 | multiplication
10 min times tables quiz for my son pls | quiz | 600 | multiplication
start an addition quiz, 3 mins | quiz | 180 | addition
subtraction drill for eight minutes | quiz | 480 | subtraction
give me a 15 minute mental arithmetic quiz | quiz | 900 | mixed
quiz me for 20 mins, mix everything | quiz | 1200 | mixed
math quiz 2 min | quiz | 120 | mixed
Speedrun attempt: 60 second multiplication quiz, go! | quiz | 60 | multiplication
arithmetic quiz half an hour | quiz | 1800 | mixed
can I get a quick 4-minute quiz on adding numbers | quiz | 240 | addition
Please commence an arithmetic practice quiz of twenty minutes duration. | quiz | 1200 | mixed
ok quiz time 🧮 multiplication 10 min | quiz | 600 | multiplication
her homework is in Spanish but the math is just subtraction, start a 12 minute subtraction quiz for her | quiz | 720 | subtraction
test my multiplying for a quarter hour | quiz | 900 | multiplication
one hour of arithmetic quiz, full exam sim | quiz | 3600 | mixed
quiz 5 min addition | quiz | 300 | addition
hit me with a subtraction quiz, 90 secs | quiz | 90 | subtraction
start quiz mixed ops 25 minutes | quiz | 1500 | mixed
start a times table quiz seven minutes while the paint dries | quiz | 420 | multiplication
Drill me on mental math for 10 minutes before the contest | quiz | 600 | mixed
quizz me on multiplcation for 6 mins | quiz | 360 | multiplication
quiz me 45 min, addition only | quiz | 2700 | addition
10 min arithmetic quiz pls, 谢谢 | quiz | 600 | mixed
stop the timer, a patient just walked in | stop
cancel focus | stop
end the quiz but keep my focus running | stop
stop the focus session, leave the quiz going | stop
ok stop stop stop | stop
Kindly terminate the current focus period. | stop
I'm done, end it | stop
quit the quiz | stop
stop the quiz, I'll keep focusing | stop
stp timer | stop
abort run, stop the focus 😤 | stop
how much tiem left? | status
is the focus timer still running | status
what's running right now? | status
how long till the quiz ends | status
time check pls | status
am I still in focus mode? signal dropped | status
May I ask how much time remains on the current session? | status
how many mins left on my focus 👀 | status
is there a quiz going right now | status
whats the timer at | status
hi there 👋 | help
what does the quiz app do? | help
remind me in 20 minutes to check the kiln | help
set an alarm for 6:45 | help
pause the timer for a sec, phone call | help
I did a 50 minute focus yesterday, feeling good | help
don't start anything yet | help
my coworker is doing a 25 min focus, should I? | help
tomorrow morning start a 1 hour focus for me | help
quiz me on French vocab for 10 minutes | help
division quiz 5 min | help
got 27/30 on the multiplication one!! | help
add a note: order more glaze | help
if I started a 3 hour focus would it survive my laptop sleeping | help
lol my real timer is the kiln | help
can the focus timer go longer than a day? | help
not now, maybe later | help
quiz me on the capitals of Europe, 15 min | help
thanks, that helped | help
what's 7 times 8 | help
Would it be possible, in principle, to run a quiz and a focus at the same time? | help
I was going to do 40 minutes but never mind | help
start a fractions quiz, 10 minutes | help
start a focus session | ask
let's do 30 minutes | ask
quiz me | ask
can you start a | ask
20 mins pls 🙏 | ask
start a multiplication quiz | ask
focus on the appeals queue now | ask
start a 30 hour focus | range
multiplication quiz for 2 hours | range
focus for 3 days on the backlog | range
Please start a focus period of forty-eight hours. | range
90 minute arithmetic quiz for the mock | range
addition quiz 75 mins | range
"""

HELD_OUT_FRESH19_ZH = """
急诊前台难得安静，开个20分钟专注，整理病历 | start | 1200 | 整理病历
帮我专注十五分钟填保险表 | start | 900 | 填保险表
手上全是泥，语音说：开始专注四十分钟，修坯 | start | 2400 | 修坯
上釉，一个小时，开始计时 | start | 3600 | 上釉
开专注45分钟刷奥赛组合题 | start | 2700 | 刷奥赛组合题
专注一个半小时做IMO真题 | start | 5400 | 做IMO真题
信号不好，快：专注35分钟，看书 | start | 2100 | 看书
地铁上，开个50分钟的专注写基金申请 | start | 3000 | 写基金申请
我们先做一个温和的十分钟专注，练习呼吸 | start | 600 | 练习呼吸
开始十二分钟专注，身体扫描 | start | 720 | 身体扫描
小助手开始专注四十五分钟换刹车片 | start | 2700 | 换刹车片
开专注三十分钟 保养单据 | start | 1800 | 保养单据
请为起草季度报告启动九十分钟的专注时段。 | start | 5400 | 起草季度报告
烦请开启两小时专注，用于审阅招标文件。 | start | 7200 | 审阅招标文件
练any%路线，开两小时专注 | start | 7200 | 练any%路线
专注55分钟 练第三关的跳关 | start | 3300 | 练第三关的跳关
开30分钟专注，陪孩子写英文作业 | start | 1800 | 陪孩子写英文作业
開始專注二十分鐘，看申請文書 | start | 1200 | 看申請文書
读申请文书，专注50分钟 | start | 3000 | 读申请文书
审核队列爆了，给我25分钟专注处理举报 | start | 1500 | 处理举报
专注一小时，复核申诉 | start | 3600 | 复核申诉
🔥专注30分钟写论文🔥 | start | 1800 | 写论文
专注模式✨一小时✨ | start | 3600 | -
番茄钟25分钟走起 | start | 1500 | -
我需要集中精神三刻钟 | start | 2700 | -
专注1小时15分，写论文第二章 | start | 4500 | 写论文第二章
夜班，开8小时专注处理行政 | start | 28800 | 处理行政
开90秒专注试试 | start | 90 | -
黑客松，专注24小时 | start | 86400 | 黑客松
计时二十五分钟回邮件 | start | 1500 | 回邮件
开个四十分钟的专注叠衣服哈哈 | start | 2400 | 叠衣服
背解剖，专注一个钟头 | start | 3600 | 背解剖
开始专注两个半小时，有机化学 | start | 9000 | 有机化学
专注20min | start | 1200 | -
专注时长：35分钟；事项：对账。 | start | 2100 | 对账
揉泥半小时，帮我开专注 | start | 1800 | 揉泥
进入专注模式十分钟🙏 | start | 600 | -
帮我start一个25分钟的focus，写周报 | start | 1500 | 写周报
開個番茄鐘四十分鐘讀書 | start | 2400 | 讀書
专注一刻钟 | start | 900 | -
奥赛热身：乘法测验5分钟 | quiz | 300 | multiplication
给孩子来个十分钟的九九乘法表测验 | quiz | 600 | multiplication
开始加法测验，三分钟 | quiz | 180 | addition
减法小测八分钟 | quiz | 480 | subtraction
来个15分钟的心算测验 | quiz | 900 | mixed
出题考我20分钟，混合的 | quiz | 1200 | mixed
数学测验2分钟 | quiz | 120 | mixed
速通挑战：60秒乘法测验，开始！ | quiz | 60 | multiplication
口算测验半小时 | quiz | 1800 | mixed
可以来个4分钟的加法小测吗 | quiz | 240 | addition
请开始一次时长二十分钟的算术练习测验。 | quiz | 1200 | mixed
🧮测验时间 乘法 10分钟 | quiz | 600 | multiplication
孩子的作业是西班牙语的，其实就是减法，给她开个12分钟的减法测验 | quiz | 720 | subtraction
考考我乘法，一刻钟 | quiz | 900 | multiplication
一小时算术测验，模拟考试 | quiz | 3600 | mixed
測驗5分鐘 加法 | quiz | 300 | addition
减法quiz 90秒 | quiz | 90 | subtraction
混合运算测验25分钟 | quiz | 1500 | mixed
油漆干的时候来个七分钟乘法测验 | quiz | 420 | multiplication
比赛前练10分钟心算，出题考我 | quiz | 600 | mixed
加法测验45分钟 只要加法 | quiz | 2700 | addition
start a 乘法 quiz 六分钟 | quiz | 360 | multiplication
口算小测，三十分钟，加减乘都来 | quiz | 1800 | mixed
结束计时，来病人了 | stop
取消专注 | stop
把测验停了，专注继续 | stop
专注结束掉，测验别动 | stop
停停停 | stop
请终止当前的专注时段。 | stop
我弄完了，关掉吧 | stop
退出测验 | stop
停止計時 | stop
不测了，停掉quiz | stop
😤不练了 停掉专注 | stop
还剩多少时间？ | status
专注还在计时吗 | status
现在在跑什么？ | status
测验还有多久结束 | status
看下时间还剩几分钟 | status
刚才掉线了，我还在专注吗？ | status
请问当前时段还剩多少时间？ | status
专注还剩几分钟👀 | status
現在有測驗在進行嗎 | status
计时器到哪了 | status
你好呀👋 | help
测验这个应用能干嘛？ | help
二十分钟后提醒我看窑 | help
定个6点45的闹钟 | help
暂停一下计时，接个电话 | help
昨天专注了50分钟，感觉不错 | help
先别开始 | help
同事在做25分钟的专注，我要不要也做 | help
明天早上帮我开一小时专注 | help
考我十分钟法语单词 | help
除法测验5分钟 | help
乘法那个我拿了27/30！！ | help
记一下：再订点釉料 | help
如果开3小时专注，电脑休眠了还会继续吗 | help
哈哈我真正的计时器是窑炉 | help
专注能超过一天吗？ | help
现在不用，等会儿再说 | help
考我欧洲首都，15分钟 | help
谢谢，有用 | help
7乘8等于几 | help
原则上能不能同时开测验和专注？ | help
本来想做40分钟的，算了 | help
分数测验来十分钟 | help
我女儿刚做完一个乘法测验 | help
开始专注 | ask
来十五分钟吧 | ask
考考我 | ask
帮我开一个 | ask
二十分钟🙏 | ask
开个乘法测验 | ask
现在专注处理申诉 | ask
开30小时专注 | range
乘法测验两小时 | range
专注三天搞定积压 | range
请开启四十八小时的专注时段。 | range
来个90分钟的算术测验模拟考 | range
加法测验75分钟 | range
"""
