# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A thirty-first fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh31``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, git history or diffs, nor the
rows of any other corpus (the test_corpus.py tables, any corpus_people*.py rows) — only the eighth fresh
set's module docstring (for the format and the rules; the file's first two lines were printed too, the
ruff comment and the docstring's opening line), the measuring helpers (``_rows``, ``_kind``, ``_check`` in
test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in test_corpus_people.py, their
bodies only, as printed by grep with a few lines of context) and the apps' manifests for their bounds
(focus up to 24 hours, quiz up to 1 hour; Notes has no start). It did not search the repository for
phrases and did not run the parser or the measure on these rows. Each row was labelled with what a careful
human assistant would do with the two timed apps installed (a focus timer and an arithmetic quiz): an
unclear request is ``ask`` or ``help``, never a guess. It is measured once, by someone else, after all
rows were written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone),
``range`` (a duration past the app's bound) and ``help`` (anything that must not act: questions about the
apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for later, things it cannot
do — reminders, alarms, pausing, Notes, quizzes on anything but the four arithmetic kinds, division
included — scores reported, greetings and thanks). An activity is written as the person would want the
timer labelled, cut from the request in their words. A request to start a quiz for a child on this device
("give my son a ten-minute subtraction quiz") is a start, not someone else's doing; stopping one app and
keeping the other is ``stop``; "pomodoro 25" and "lock in for 45" read as minutes; a bare "quiz me" or
"开个计时器" with no length is ``ask``.

Written as new voices — a sound engineer, a nanny, a Macau casino dealer between shifts, a primary-school
headteacher, a long-distance trucker on voice input (no punctuation), a stay-at-home dad, a
Korean-Chinese bilingual student, a professional gamer, a data-entry clerk, a priest writing a sermon,
someone who writes durations as "25mins" or "1hr30", someone who checks the status a lot in different
words — typing on phones and laptops: typos, slang, numbers as words and digits, emoji, mixed zh/en in both
tables (a little Korean too), some traditional characters and Cantonese in zh, context first, durations
before or after the verb. The mix, per language: about a third focus starts (with and without activity),
a fifth quizzes (with and without a kind), stops (also with both running, stopping one and keeping the
other), status, a fifth that must not act, a few asks and out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH31_EN = """
25mins focus on the dialogue edit pls | start | 1500 | dialogue edit
need 1hr30 of deep focus for the sermon | start | 5400 | sermon
kids are napping, 45 min focus timer for my online course | start | 2700 | online course
okay start a focus timer for forty five minutes for the logbook | start | 2700 | logbook
focus 2h ranked practice | start | 7200 | ranked practice
ok timer 25 min focus, data entry batch 14 | start | 1500 | data entry batch 14
Could you start a 50-minute focus block? I'm drafting the Advent homily. | start | 3000 | drafting the Advent homily
pomodoro 25 🍅 | start | 1500 | -
set focus for 1 hour | start | 3600 | -
focus mode: 20 min | start | 1200 | -
gimme an hour and a quarter of focus for the staff rota | start | 4500 | staff rota
Focus timer 90 seconds, just testing | start | 90 | -
start focusing. 35 minutes. mixing the podcast ep | start | 2100 | mixing the podcast ep
three hours of focus for the sermon rewrite please | start | 10800 | sermon rewrite
i got 20 mins before pickup, focus on emails | start | 1200 | emails
focus 1h15m spreadsheet cleanup | start | 4500 | spreadsheet cleanup
timer for 10 minutes of focus | start | 600 | -
Start a 2.5 hour focus session | start | 9000 | -
focus for half an hour on my Korean homework | start | 1800 | Korean homework
lock in for 45 🔒 vod review | start | 2700 | vod review
Put me on a focus timer, 55 minutes. | start | 3300 | -
can u do focus 15min | start | 900 | -
Twenty-five minutes, focus, invoices. | start | 1500 | invoices
I need to prep the assembly talk — 40 min focus please | start | 2400 | prep the assembly talk
focus timer 8h for paperwork | start | 28800 | paperwork
start focus 1hr | start | 3600 | -
one hour focus on the noise reduction pass | start | 3600 | noise reduction pass
Begin a focus session of 30 minutes for the reading log | start | 1800 | reading log
focus session, 12 min, tidying the toy room | start | 720 | tidying the toy room
can we do a twenty minute focus thing | start | 1200 | -
timer: focus 1hr45 on sermon notes | start | 6300 | sermon notes
focus for 24 hours straight, game jam | start | 86400 | game jam
Start my focus: 25 min, label it keno payouts | start | 1500 | keno payouts
fokus 30 min plz | start | 1800 | -
focuse timer for 25 minutes | start | 1500 | -
i want to focus for an hour on the lesson plans | start | 3600 | lesson plans
45 min focus — rosters | start | 2700 | rosters
ok let's focus, 25 | start | 1500 | -
focus for 90 mins on the mixdown | start | 5400 | mixdown
focus 40 min for my 한국어 reading | start | 2400 | 한국어 reading
focus 20 mins 谢谢 | start | 1200 | -
quiz me on multiplication for 5 minutes | quiz | 300 | multiplication
times tables quiz, 10 min | quiz | 600 | multiplication
5 min addition drill before my shift | quiz | 300 | addition
can you give my son a 10 minute subtraction quiz | quiz | 600 | subtraction
arithmetic quiz 15 minutes | quiz | 900 | mixed
mental maths, 20 mins, mixed please | quiz | 1200 | mixed
quick quiz 3 min | quiz | 180 | mixed
quiz for half an hour, adding | quiz | 1800 | addition
ten minute take-away quiz for year 2 | quiz | 600 | subtraction
multiplication practice 7 mins | quiz | 420 | multiplication
Start a maths quiz — 1 hour | quiz | 3600 | mixed
quiz 1hr | quiz | 3600 | mixed
addition sums for 8 minutes, quiz me | quiz | 480 | addition
Quiz me, 12 minutes, subtraction only | quiz | 720 | subtraction
2 min multiplication blitz | quiz | 120 | multiplication
I want a 25-minute math quiz | quiz | 1500 | mixed
a quiz on times tables for forty minutes | quiz | 2400 | multiplication
quizz me 15mins multiplicaton | quiz | 900 | multiplication
arithmetic drill for 90 seconds | quiz | 90 | mixed
number quiz for 20 minutes pls 🙏 | quiz | 1200 | mixed
test me on my times tables for 6 min | quiz | 360 | multiplication
Let's do a mixed arithmetic quiz for 30 minutes | quiz | 1800 | mixed
a quarter hour addition quiz | quiz | 900 | addition
quick 10 min 乘法 quiz | quiz | 600 | multiplication
stop the timer | stop
ok cancel focus | stop
end the quiz, keep my focus running | stop
kill the quiz | stop
stop everything | stop
I'm done, you can stop it | stop
abort focus session | stop
stop the quiz but not the timer | stop
enough, end it | stop
cancel the pomodoro pls | stop
turn the focus timer off | stop
baby's awake, shut the timer off | stop
quit quiz | stop
how long left? | status
time check | status
is the focus timer still going? | status
how many mins left on the quiz | status
what's running right now? | status
am I still in focus mode | status
hows my timer doing | status
how much longer | status
when does my focus end? | status
status? | status
where's the timer at | status
any time left on the quiz? | status
is the quiz still on? | status
what does the quiz app do? | help
can the timer do breaks? | help
don't start a timer, I'm just looking | help
I did 25 minutes of focus this morning | help
if I focused for 3 hours would you stop me? | help
my wife is running a focus session on her laptop | help
tomorrow at 9 start a 1 hour focus | help
remind me in 20 minutes to move the truck | help
set an alarm for 5am | help
pause the timer for a sec | help
add a note: buy diapers | help
quiz me on French verbs for 10 min | help
division quiz 10 min | help
got 27 out of 30 on that quiz!! | help
hi there | help
morning 👋 | help
lol a timer that judges me | help
thanks! | help
what's 7 times 8? | help
the kids had a maths quiz at school today | help
I'll focus after lunch | help
no quiz today, thanks | help
can you read my notes back? | help
how do I change the quiz length? | help
who made you | help
let's do 30 minutes | ask
start a focus session | ask
quiz me | ask
set me up for 25 | ask
can I get twenty minutes? | ask
focus for 30 hours | range
quiz me for 2 hours on multiplication | range
a 90 minute addition quiz | range
focus 48h game marathon | range
two-day focus for the album master | range
"""

HELD_OUT_FRESH31_ZH = """
专注25分钟，剪对白 | start | 1500 | 剪对白
帮我开个专注，一个半小时，写讲道稿 | start | 5400 | 写讲道稿
孩子睡了，专注四十分钟 | start | 2400 | -
开始专注四十五分钟整理行车日志 | start | 2700 | 整理行车日志
專注兩小時，練習排位 | start | 7200 | 練習排位
番茄钟25分钟 录入第14批数据 | start | 1500 | 录入第14批数据
来个50分钟的专注，我要备课 | start | 3000 | 备课
专注一小时 | start | 3600 | -
定个专注计时 20分钟 | start | 1200 | -
给我一小时一刻钟专注排值班表 | start | 4500 | 排值班表
专注半小时背韩语单词 | start | 1800 | 背韩语单词
开启专注模式 35min 混音 | start | 2100 | 混音
专注三个小时改讲稿 | start | 10800 | 改讲稿
接娃前还有20分钟，专注回邮件 | start | 1200 | 回邮件
專注一個鐘，溫書 | start | 3600 | 溫書
专注1h15min 整理表格 | start | 4500 | 整理表格
计时专注十分钟 | start | 600 | -
开一个两个半小时的专注 | start | 9000 | -
lock in 45分钟 复盘录像 | start | 2700 | 复盘录像
专注五十五分钟吧 | start | 3300 | -
专注15min | start | 900 | -
二十五分钟专注，对账 | start | 1500 | 对账
我要准备周一的升旗讲话，专注40分钟 | start | 2400 | 准备周一的升旗讲话
专注8小时 处理单据 | start | 28800 | 处理单据
专注一个小时做降噪 | start | 3600 | 做降噪
开始专注30分钟，读书笔记 | start | 1800 | 读书笔记
专注12分钟收拾玩具房 | start | 720 | 收拾玩具房
专注个二十分钟 | start | 1200 | -
专注1小时45分 写讲章 | start | 6300 | 写讲章
专注24小时 game jam | start | 86400 | game jam
開專注25分鐘，標籤寫百家樂賠率 | start | 1500 | 百家樂賠率
专住30分钟 | start | 1800 | -
番茄钟一个，25分钟🍅 | start | 1500 | -
我想专注一小时改教案 | start | 3600 | 改教案
45分钟专注 排班 | start | 2700 | 排班
专注90分钟 做母带 | start | 5400 | 做母带
打开专注计时器，半个钟 | start | 1800 | -
专注 1hr30 复习驾照理论 | start | 5400 | 复习驾照理论
화이팅！专注四十分钟背单词 | start | 2400 | 背单词
focus一下，二十分钟 | start | 1200 | -
出5分钟乘法题考我 | quiz | 300 | multiplication
九九乘法表测验10分钟 | quiz | 600 | multiplication
上班前做5分钟加法练习 | quiz | 300 | addition
给我儿子来个10分钟减法测验 | quiz | 600 | subtraction
算术测验15分钟 | quiz | 900 | mixed
口算20分钟，混合的 | quiz | 1200 | mixed
来个3分钟小测验 | quiz | 180 | mixed
加法测验半小时 | quiz | 1800 | addition
乘法练习7分钟 | quiz | 420 | multiplication
开始数学测验 一小时 | quiz | 3600 | mixed
测验1hr | quiz | 3600 | mixed
考我12分钟减法 | quiz | 720 | subtraction
2分钟乘法快问快答 | quiz | 120 | multiplication
我要做个25分钟的数学小测 | quiz | 1500 | mixed
背乘法口诀，测四十分钟 | quiz | 2400 | multiplication
测验15min 乘发 | quiz | 900 | multiplication
算术练习90秒 | quiz | 90 | mixed
来20分钟口算题🙏 | quiz | 1200 | mixed
考考我乘法表，6分钟 | quiz | 360 | multiplication
混合运算测验三十分钟 | quiz | 1800 | mixed
一刻钟加法小测 | quiz | 900 | addition
減法測驗八分鐘 | quiz | 480 | subtraction
quiz 10分钟 加减乘混合 | quiz | 600 | mixed
停止计时 | stop
取消专注 | stop
把测验关了，专注继续 | stop
结束测验 | stop
全部停掉 | stop
好了不做了，停吧 | stop
中止专注 | stop
只停测验，计时别停 | stop
够了，结束 | stop
番茄钟取消 | stop
宝宝醒了，把计时关掉 | stop
唔做喇，停咗佢 | stop
测验stop掉 | stop
还剩多久？ | status
专注还在计时吗 | status
测验还剩几分钟 | status
现在在跑什么 | status
我还在专注模式吗 | status
计时器怎么样了 | status
还要多久 | status
专注几点结束？ | status
状态？ | status
計時器走到哪了 | status
测验还有时间吗 | status
测验还开着吗 | status
仲有几耐？ | status
测验这个app能干嘛？ | help
计时器能设休息时间吗？ | help
别开计时，我就看看 | help
今天早上专注了25分钟 | help
要是我专注三个小时你会提醒我吗？ | help
我老婆在她电脑上开了个专注 | help
明天早上九点帮我开一小时专注 | help
20分钟后提醒我挪车 | help
定个早上5点的闹钟 | help
暂停一下计时 | help
记一下：买尿布 | help
考我10分钟英语单词 | help
除法测验10分钟 | help
那次测验我拿了27/30!! | help
你好呀 | help
早晨 👋 | help
哈哈计时器还会催我 | help
谢谢！ | help
7乘8等于多少？ | help
孩子今天在学校考了算术 | help
午饭后再专注 | help
今天不做测验了 | help
把我的笔记念一下 | help
测验时长怎么改？ | help
你是谁做的 | help
整个三十分钟吧 | ask
开始专注 | ask
考考我 | ask
给我计个二十五 | ask
开个计时器 | ask
专注30个小时 | range
乘法测验两个小时 | range
90分钟加法测验 | range
专注48h 打通宵比赛 | range
專注兩天趕混音 | range
"""
