# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A sixteenth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh16``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the rows of any other corpus
(the tables in test_corpus.py, any corpus_people*.py rows) nor the git history, and it did not search the
repository for phrases. It read only the eighth fresh set's module docstring (for the format and the
rules), the measuring helpers (``_rows``, ``_kind``, ``_check`` in test_corpus.py and ``_measure``,
``_label`` and the ``_DETERMINER`` regex in test_corpus_people.py, their bodies only) and the apps'
manifests for their bounds (focus up to 24 hours, quiz up to 1 hour; Notes has no timed start). It did not
run the parser nor the measure on these rows. Each row was labelled with what a careful human assistant
would do with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear request is
``ask`` or ``help``, never a guess. It is measured once, by someone else, after all rows were written, and
no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app, such as a length said alone
with no app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not
act: questions about the apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans
for later, things it cannot do — reminders, alarms, pausing, notes, quizzes on anything but the four
arithmetic kinds — scores reported and greetings). An activity is written as the person would want the
timer labelled, cut from the request in their words.

Written as new voices — an air-traffic-control trainee, a hairdresser between clients, a Sunday-school
teacher, a graduate in a job hunt, a pianist, a software tester, a social worker, a bored teenager, a
grandmother dictating to her grandson, an expat in China mixing Chinese and English, a Taiwanese user
writing traditional characters, someone who writes prices and times in the same message — typing on
phones and laptops: typos, slang, numbers as words and digits, emoji, context first, durations before or
after the verb. The mix, per language: about a third focus starts (with and without activity), a fifth
quizzes (with and without a kind, durations in various forms), stops (also with both running, stopping
one and keeping the other), status questions, a fifth that must not act, a few asks and a few
out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH16_EN = """
ok 25 min focus on my resume | start | 1500 | my resume
Start a focus session for 45 minutes. | start | 2700 | -
between clients — 15 min focus on the booking spreadsheet pls | start | 900 | the booking spreadsheet
focus 50 min on approach control phraseology | start | 3000 | approach control phraseology
I need twenty-five minutes of quiet for lesson prep, start the timer | start | 1500 | lesson prep
timer 1 hr — cover letters | start | 3600 | cover letters
45 minutes of scales, go | start | 2700 | scales
timebox 1h30 for regression testing | start | 5400 | regression testing
pomodoro 25m bug triage | start | 1500 | bug triage
focus 40 mins: case notes write-up | start | 2400 | case notes write-up
ugh fine. 20 min focus on chem hw 🙄 | start | 1200 | chem hw
My grandma says please start a 30 minute timer for her knitting | start | 1800 | knitting
coffee was $4.50 today smh. anyway 35 min focus on invoices | start | 2100 | invoices
focus for an hour and a half please | start | 5400 | -
half an hour of deep work on the quarterly report | start | 1800 | the quarterly report
can u start focus mode for 2 hours, studying for the GRE | start | 7200 | studying for the GRE
let me focus for 90 mins | start | 5400 | -
Focus: 1 hour 15 minutes, topic: portfolio website | start | 4500 | portfolio website
start me a 10 minute focus sprint | start | 600 | -
40 min focus, Chopin nocturne practice | start | 2400 | Chopin nocturne practice
3 hours focus, thesis chapter 2 | start | 10800 | thesis chapter 2
a quarter of an hour on emails, start the clock | start | 900 | emails
Could you run a 55-minute focus block for me? | start | 3300 | -
focus sesh 30min, writing test cases | start | 1800 | writing test cases
start 1 hour focus on memorising Bible verses | start | 3600 | memorising Bible verses
8 hours focus, overnight shift paperwork | start | 28800 | overnight shift paperwork
start a twelve minute focus | start | 720 | -
pls focus timer 20 minutes thx | start | 1200 | -
tip was $15 and the cut took 45 min lol. ok now focus 30 min on restocking | start | 1800 | restocking
got 2 interviews tomorrow so let's do an hour of focus on interview prep now | start | 3600 | interview prep
focus mode on, 1.5 hrs, flight strip exercises | start | 5400 | flight strip exercises
begin a 35-min focus period | start | 2100 | -
need to concentrate on sight-reading for 25 minutes | start | 1500 | sight-reading
focus for 24 hours straight, hackathon | start | 86400 | hackathon
Set up a 2-hour focus session for my budget spreadsheet | start | 7200 | my budget spreadsheet
focus 5 min to clear my inbox | start | 300 | clear my inbox
start focusing, 45 min, grading homework | start | 2700 | grading homework
forty five minutes focus on my LinkedIn profile | start | 2700 | my LinkedIn profile
ok im at the laptop now. focus 1 hour. tax return | start | 3600 | tax return
quiz me on multiplication for 5 minutes | quiz | 300 | multiplication
10 min mental math quiz | quiz | 600 | mixed
can I get a 3 minute addition quiz | quiz | 180 | addition
subtraction drill, 7 mins pls | quiz | 420 | subtraction
times tables quiz for a quarter of an hour | quiz | 900 | multiplication
Start an arithmetic quiz, 20 minutes. | quiz | 1200 | mixed
test me on adding numbers for two minutes | quiz | 120 | addition
90 second multiplication sprint quiz | quiz | 90 | multiplication
quiz 15 min, mix of everything | quiz | 900 | mixed
my brain is mush, quick 5 minute math quiz to wake up | quiz | 300 | mixed
half an hour of subtraction practice quiz | quiz | 1800 | subtraction
give my students a 10-minute multiplication quiz on the projector | quiz | 600 | multiplication
one hour arithmetic quiz, mixed | quiz | 3600 | mixed
quiz: addition, 8 min | quiz | 480 | addition
run a mixed math quiz for twelve minutes | quiz | 720 | mixed
I want to practise my times tables, 4 minutes quiz | quiz | 240 | multiplication
bored. math quiz 6 min | quiz | 360 | mixed
Grandma wants a 10 minute subtraction quiz to keep sharp | quiz | 600 | subtraction
start a quiz on multiplication — 25 minutes | quiz | 1500 | multiplication
quick mental arithmetic quiz, 1 min | quiz | 60 | mixed
can we do a quiz with minus questions for 5 mins | quiz | 300 | subtraction
quiz time! 20 min of addition | quiz | 1200 | addition
gimme a 45 min math quiz | quiz | 2700 | mixed
stop the timer | stop
cancel the quiz, I'm done | stop
stop the quiz but keep the focus timer running | stop
end my focus session now please | stop
client just walked in, stop focus | stop
ok kill it | stop
stop everything | stop
end the math quiz, leave my focus going | stop
I'm quitting the focus early, stop it | stop
Please stop the quiz. | stop
abort focus | stop
how much time is left? | status
is the quiz still running? | status
how long till my focus ends | status
what's running right now? | status
how many minutes left on the timer | status
am I still in a focus session? | status
status? | status
time left on the quiz? | status
is my focus timer still going or did it stop | status
how far into my session am I | status
what's left on the clock | status
what does the focus timer do? | help
I focused for 3 hours yesterday 💪 | help
don't start a timer yet, still eating | help
if I started a 2 hour focus would it keep going when my phone locks? | help
my coworker is doing a 50 minute pomodoro, lol | help
remind me to call the client at 4pm | help
set an alarm for 6:30 tomorrow | help
pause the timer for a sec | help
quiz me on US state capitals for 10 minutes | help
can you do a division quiz for 5 minutes? | help
I got 17 out of 20 on that quiz! | help
good morning! | help
tell me a joke | help
write down: buy hair dye, 3 boxes | help
after lunch I'll do a 45 min focus | help
start a 25 min focus in 10 minutes | help
how long can a quiz be? | help
no quiz today thanks | help
lol the last session felt like 5 hours | help
thanks, that was a great session | help
can I use this for flashcards? | help
quiz me on chord progressions for 15 min | help
what's 7 times 8? | help
my sister wants to know if the quiz has fractions | help
start a focus session | ask
let's do 30 minutes | ask
quiz me on multiplication | ask
20 min pls | ask
I need to focus on my cover letter | ask
set something up for an hour | ask
start a quiz | ask
focus for 30 hours | range
2 hour multiplication quiz | range
start a focus session for two days | range
quiz me for 90 minutes on addition | range
focus 25h on the migration | range
"""

HELD_OUT_FRESH16_ZH = """
专注25分钟，写简历 | start | 1500 | 写简历
帮我开一个45分钟的专注 | start | 2700 | -
下一个客人还有一会儿才到，专注十五分钟整理预约表 | start | 900 | 整理预约表
专注半小时背陆空通话用语 | start | 1800 | 背陆空通话用语
练琴一个小时，开始计时 | start | 3600 | 练琴
開始專注四十分鐘，讀書 | start | 2400 | 讀書
幫我專注一個半小時寫報告 | start | 5400 | 寫報告
ok 开始 focus 一小时 pls | start | 3600 | -
帮我 focus 45 min, 写 weekly report | start | 2700 | 写 weekly report
刚买了杯咖啡28块，贵死了。专注50分钟改论文 | start | 3000 | 改论文
专注二十分钟，做化学作业 😩 | start | 1200 | 做化学作业
奶奶说：帮她开个三十分钟的计时，她要织毛衣 | start | 1800 | 织毛衣
来个番茄钟，25分钟，测试用例 | start | 1500 | 测试用例
我要专注两个小时准备面试 | start | 7200 | 准备面试
专注 90 分钟 | start | 5400 | -
开始专注，一个钟头，写个案记录 | start | 3600 | 写个案记录
給我計時專注三刻鐘，練習視奏 | start | 2700 | 練習視奏
专注模式开启 40分钟 备课 | start | 2400 | 备课
帮我计时专注1小时20分钟 | start | 4800 | -
准备主日学的课，专注45分钟 | start | 2700 | 准备主日学的课
专注三个小时赶毕业论文 | start | 10800 | 赶毕业论文
现在开始专注十分钟 | start | 600 | -
无聊死了，专注15分钟背单词吧 | start | 900 | 背单词
专注1.5小时做回归测试 | start | 5400 | 做回归测试
好，开始专注35分钟 | start | 2100 | -
帮我定个专注时段，两小时，整理账本 | start | 7200 | 整理账本
專注一小時，準備履歷 | start | 3600 | 準備履歷
专注五分钟，回邮件 | start | 300 | 回邮件
今天理发收了三百块小费哈哈，专注半个小时整理库存 | start | 1800 | 整理库存
专注 25min 刷题 | start | 1500 | 刷题
给我开一个二十分钟的专注 | start | 1200 | -
开始专注 一小时十五分 做作品集 | start | 4500 | 做作品集
专注八小时，夜班报表 | start | 28800 | 夜班报表
我要练肖邦夜曲，专注四十分钟 | start | 2400 | 练肖邦夜曲
请开始一次55分钟的专注 | start | 3300 | -
专注十二分钟 | start | 720 | -
帮我专注一个钟，写求职信 | start | 3600 | 写求职信
专注两个半小时复习管制规章 | start | 9000 | 复习管制规章
focus 30分钟 改bug | start | 1800 | 改bug
来个5分钟的乘法测验 | quiz | 300 | multiplication
口算练习十分钟 | quiz | 600 | mixed
出一个三分钟的加法小测 | quiz | 180 | addition
减法测验 七分钟 | quiz | 420 | subtraction
九九乘法表考我一刻钟 | quiz | 900 | multiplication
开始一个20分钟的算术测验 | quiz | 1200 | mixed
考考我加法，两分钟 | quiz | 120 | addition
90秒乘法测验，越快越好 | quiz | 90 | multiplication
混合运算测验 15分钟 | quiz | 900 | mixed
脑子转不动了，做个五分钟的数学小测醒醒脑 | quiz | 300 | mixed
半小时减法练习测验 | quiz | 1800 | subtraction
给学生出个十分钟的乘法测验 | quiz | 600 | multiplication
一小时算术测验 | quiz | 3600 | mixed
測驗：加法，八分鐘 | quiz | 480 | addition
来个十二分钟的心算测验 | quiz | 720 | mixed
我想练乘法口诀，测四分钟 | quiz | 240 | multiplication
好无聊 数学测验 6分钟 | quiz | 360 | mixed
奶奶想做个十分钟的减法测验动动脑 | quiz | 600 | subtraction
开始乘法测验——25分钟 | quiz | 1500 | multiplication
心算小测一分钟 | quiz | 60 | mixed
quiz 一下减法 5 min | quiz | 300 | subtraction
測驗時間！二十分鐘加法 | quiz | 1200 | addition
来个45分钟的数学测验 | quiz | 2700 | mixed
停止计时 | stop
测验不做了，取消 | stop
停掉测验，专注继续 | stop
结束专注 | stop
客人来了，专注停掉 | stop
关掉吧 | stop
全部停掉 | stop
把数学测验结束，专注别停 | stop
不专注了，停了吧 | stop
請停止測驗 | stop
stop 专注 | stop
还剩多久？ | status
测验还在进行吗 | status
专注什么时候结束 | status
现在在跑什么？ | status
计时器还剩几分钟 | status
我还在专注中吗 | status
状态？ | status
測驗還剩多少時間 | status
专注还在计时吗，还是已经停了 | status
我专注多久了 | status
还有几分钟到点 | status
专注计时器是干嘛的？ | help
昨天专注了三个小时 💪 | help
先别开计时，我还在吃饭 | help
如果我开两小时专注，手机锁屏还会继续吗？ | help
我同事在做50分钟的番茄钟，哈哈 | help
提醒我下午四点给客户打电话 | help
定个明早六点半的闹钟 | help
计时器暂停一下 | help
考我十分钟的英语单词 | help
来个五分钟的除法测验 | help
刚才测验我对了17道！ | help
早上好！ | help
讲个笑话 | help
记一下：买染发剂三盒 | help
吃完午饭我再专注45分钟 | help
十分钟后开始25分钟专注 | help
测验最长能多久？ | help
今天不做测验了，谢谢 | help
上一轮感觉像过了五个小时 | help
谢谢，这轮专注很棒 | help
这个能背单词卡吗？ | help
考我和弦进行，15分钟 | help
7乘8等于几？ | help
我妹妹问测验里有没有分数 | help
开始专注 | ask
来十分钟 | ask
考考我乘法 | ask
二十分钟吧 | ask
我得专心写求职信了 | ask
帮我弄个一小时的 | ask
来个测验 | ask
专注30个小时 | range
两小时的乘法测验 | range
专注两天 | range
做90分钟加法测验 | range
專注25小時趕專案 | range
"""
