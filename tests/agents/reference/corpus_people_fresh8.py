# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""An eighth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36, item 3) by a
helper session (branch ``i36-fresh8``) writing blind: it did not open the grammar (agents/reference/*.py,
agents/llm/*), the apps' phrasing declarations (miniapps/*/phrasings.json), decisions 0057/0064/0065/0068
nor the rows of any other corpus — only the seventh fresh set's module docstring (for the format and the
rules), the measuring helpers (``_rows``, ``_kind``, ``_check`` in test_corpus.py and ``_measure`` and
``_label`` in test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up
to 24 hours, quiz up to 1 hour; Notes has no start). It did not search the repository for phrases. Each
row was labelled with what a careful human assistant would do with the two timed apps installed (a focus
timer and an arithmetic quiz): an unclear request is ``ask`` or ``help``, never a guess. It was measured
once, after all rows were written, and no row was changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app), ``range`` (a duration past
the app's bound) and ``help`` (anything that must not act: questions, jokes, negations, past tense,
hypotheticals, someone else's doing, plans for later, things it cannot do — reminders, alarms, Notes,
quizzes on anything but the four arithmetic kinds — and scores reported). An activity is written as the
person would want it labelled, cut from the request.

Written as new voices — students, parents, shift workers, retirees, developers, people writing in their
second language, teenagers, a coach, a musician — typing on phones and laptops: typos, slang, numbers as
words, emoji, mixed zh/en, some traditional characters, polite and terse, context first, some rambling.
The mix, per language: about a third focus starts, a fifth quizzes, stops (also with both running,
stopping one and keeping the other), status, a fifth that must not act, a few asks and out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH8_EN = """
focus 25 min on my lab report pls | start | 1500 | lab report
can u start a focus timer for forty minutes for chem revision | start | 2400 | chem revision
night shift's nearly over, give me a 20 minute focus to finish charting | start | 1200 | charting
Would you kindly start a one hour focus session for my crossword? Thank you. | start | 3600 | crossword
pomodoro 25 refactoring the auth module | start | 1500 | refactoring the auth module
deep work block 90 mins, code review | start | 5400 | code review
start focus 1h30 piano scales | start | 5400 | piano scales
yo set focus 15 min homework 📚 | start | 900 | homework
i must to focus 30 minute for my english essay | start | 1800 | english essay
Please I want focus time of half hour for reading | start | 1800 | reading
coach here — 10 min focus to plan saturday's drills | start | 600 | plan saturday's drills
start a 2 hour focus on the grant application | start | 7200 | grant application
focus for 45m: tax return | start | 2700 | tax return
twenty-five minutes of focus please, flashcards | start | 1500 | flashcards
kids are finally asleep. 50 minutes focus, knitting | start | 3000 | knitting
lemme focus for like 35 min on bio notes | start | 2100 | bio notes
focus timer 3 hours thesis writing | start | 10800 | thesis writing
Start focusing now, 12 minutes, email backlog | start | 720 | email backlog
focsu 20 mins on guitar practice | start | 1200 | guitar practice
recital next week 😬 please time a 40 minute focus for cello practice | start | 2400 | cello practice
start an hour and a quarter focus for the spreadsheet migration | start | 4500 | spreadsheet migration
gimme 5 min focus just to tidy my desk | start | 300 | tidy my desk
focus 10 min | start | 600 | -
start focus 25 minutes | start | 1500 | -
Begin a focus session of 55 minutes please. | start | 3300 | -
ok focus mode for an hour | start | 3600 | -
timer for focus: 1.5 hrs, debugging the flaky test | start | 5400 | debugging the flaky test
baby's napping on me lol. 30 min focus, my novel | start | 1800 | novel
Start 60 minute focus — Spanish vocab | start | 3600 | Spanish vocab
focus twenty min sudoku | start | 1200 | sudoku
could you start a two hour focus for bar exam prep? | start | 7200 | bar exam prep
45 min focus on the quarterly report plz 🙏 | start | 2700 | quarterly report
focus 1 hr 10 min: setlist rehearsal | start | 4200 | setlist rehearsal
Hello! I would like to concentrate 20 minutes on my drawing. | start | 1200 | drawing
focus for a quarter of an hour on stretching | start | 900 | stretching
ngl i need a 30 min focus for maths hw | start | 1800 | maths hw
retired, learning to code. start a 40 min focus on python please | start | 2400 | python
focus for 24 hours on the hackathon | start | 86400 | hackathon
quiz me on times tables for 5 min | quiz | 300 | multiplication
addition quiz 10 minutes | quiz | 600 | addition
can my son do a 3 minute subtraction quiz | quiz | 180 | subtraction
mental math drill, 15 mins | quiz | 900 | mixed
give me a quick multiplication quiz, two minutes | quiz | 120 | multiplication
arithmetic quiz for half an hour pls | quiz | 1800 | mixed
Quiz 7 min mixed | quiz | 420 | mixed
practice minus sums for 4 minutes | quiz | 240 | subtraction
yo quiz me adding numbers 10 min | quiz | 600 | addition
start a quiz, 20 minutes, multiplication | quiz | 1200 | multiplication
I wish to do the arithmetic quiz during one hour | quiz | 3600 | mixed
times table practice 6 min for my 8 yo | quiz | 360 | multiplication
plus quiz for 5 mins | quiz | 300 | addition
warm-up before practice: 3 min mental maths quiz for the team | quiz | 180 | mixed
quiz: subtraction, ten minutes | quiz | 600 | subtraction
let's do math quiz 12 min 😎 | quiz | 720 | mixed
multiplcation quiz 8 min | quiz | 480 | multiplication
Could you set me an addition test for a quarter of an hour? | quiz | 900 | addition
quiz me for 45 minutes, any kind of arithmetic | quiz | 2700 | mixed
brain training: mixed arithmetic, 90 seconds | quiz | 90 | mixed
do a five minute times-tables quiz | quiz | 300 | multiplication
stop the timer | stop
ok im done, end focus | stop
cancel my focus session pls, kid woke up | stop
stop the quiz but keep my focus going | stop
end the focus, leave the quiz running | stop
stop pls | stop
quit the math quiz | stop
I have to go, please interrupt the focus session. | stop
kill the pomodoro | stop
abort focus 🛑 | stop
finish the quiz now, keep the timer | stop
how long left? | status
how much time do i have left on focus | status
is my timer still running? | status
time check | status
whats left on the quiz | status
how am I doing on time? | status
Excuse me, how many minutes remain in my session? | status
status | status
did i finish my focus yesterday? | help
i focused for 2 hours this morning 💪 | help
don't start a timer yet | help
what if I did a 25 min focus, would that help? | help
my brother is doing a 30 minute focus | help
tomorrow at 9 i'll do an hour of focus | help
remind me in 20 minutes to take the chicken out | help
set an alarm for 6am | help
add 'buy milk' to my notes | help
quiz me on French verbs for 10 min | help
division quiz 5 minutes | help
i got 18 out of 20 on the quiz! | help
why do pomodoros work | help
lol what's a focus timer gonna do, sit with me? | help
tell me a joke | help
is 25 minutes a good length for studying? | help
no quiz today thanks | help
I used to do 50 minute focus blocks in uni | help
should I start a focus or a quiz? | help
my students will do a multiplication quiz later | help
how does the quiz work | help
hi | help
wake me up in 40 minutes | help
my score was 34, is that good? | help
start a focus session | ask
quiz me on multiplication | ask
let's focus on my essay | ask
20 minutes please | ask
start something for 15 min | ask
timer pls | ask
gimme a math quiz | ask
focus for 25 hours | range
quiz me on addition for 2 hours | range
start a 30 hour focus for the hackathon | range
multiplication quiz 90 minutes | range
focus for two days | range
"""

HELD_OUT_FRESH8_ZH = """
专注25分钟，写论文 | start | 1500 | 写论文
帮我开个专注，四十分钟，复习化学 | start | 2400 | 复习化学
夜班刚下，给我20分钟专注整理交班记录 | start | 1200 | 整理交班记录
麻烦您开启一小时专注，我要练书法，谢谢 | start | 3600 | 练书法
番茄钟25分钟 重构登录模块 | start | 1500 | 重构登录模块
deep work 90分钟 code review | start | 5400 | code review
专注一个半小时 练钢琴音阶 | start | 5400 | 练钢琴音阶
开专注15min 写作业📚 | start | 900 | 写作业
我想要专注三十分钟做英语阅读 | start | 1800 | 英语阅读
半小时专注，看书 | start | 1800 | 看书
我是教练，专注10分钟排周六的训练计划 | start | 600 | 排周六的训练计划
开始两小时专注，写项目申请书 | start | 7200 | 写项目申请书
专注45分钟：报税 | start | 2700 | 报税
二十五分鐘專注，背單字 | start | 1500 | 背單字
孩子终于睡了，专注五十分钟织毛衣 | start | 3000 | 织毛衣
帮我专注个35分钟吧 整理生物笔记 | start | 2100 | 整理生物笔记
专注3小时 写毕业论文 | start | 10800 | 写毕业论文
现在开始专注，12分钟，清邮件 | start | 720 | 清邮件
专住20分钟练吉他 | start | 1200 | 练吉他
下周演出😬 帮我计时40分钟专注练大提琴 | start | 2400 | 练大提琴
开一个一小时二十分钟的专注，做表格迁移 | start | 4800 | 做表格迁移
给我5分钟专注收拾桌子 | start | 300 | 收拾桌子
专注10分钟 | start | 600 | -
开始专注25分钟 | start | 1500 | -
请开始一次五十五分钟的专注。 | start | 3300 | -
好吧 专注一小时 | start | 3600 | -
专注1.5小时 debug flaky test | start | 5400 | debug flaky test
宝宝在我身上睡着了哈哈，专注30分钟看小说 | start | 1800 | 看小说
专注60分钟 西班牙语单词 | start | 3600 | 西班牙语单词
专注二十分钟做数独 | start | 1200 | 做数独
能不能帮我开两个小时的专注？准备司法考试 | start | 7200 | 准备司法考试
45分钟专注 写季度报告 🙏 | start | 2700 | 写季度报告
专注1小时10分 排练歌单 | start | 4200 | 排练歌单
您好！我想集中精力画画二十分钟。 | start | 1200 | 画画
专注一刻钟拉伸 | start | 900 | 拉伸
说真的 我得专注30分钟写数学作业 | start | 1800 | 写数学作业
退休了在学编程，帮我开40分钟专注学python | start | 2400 | 学python
专注24小时 黑客松 | start | 86400 | 黑客松
开个focus 半小时 复习高数 | start | 1800 | 复习高数
幫我開始專注四十五分鐘，寫報告 | start | 2700 | 寫報告
考我乘法口诀5分钟 | quiz | 300 | multiplication
加法测验10分钟 | quiz | 600 | addition
让我儿子做个3分钟的减法练习 | quiz | 180 | subtraction
心算练习15分钟 | quiz | 900 | mixed
来个乘法小测，两分钟 | quiz | 120 | multiplication
算术测验半小时 | quiz | 1800 | mixed
quiz 7分钟 混合 | quiz | 420 | mixed
练减法4分钟 | quiz | 240 | subtraction
考我加法 10min | quiz | 600 | addition
开始测验，20分钟，乘法 | quiz | 1200 | multiplication
我想做一小时的算数测验 | quiz | 3600 | mixed
给我8岁的孩子练6分钟九九乘法表 | quiz | 360 | multiplication
训练前热身：3分钟口算测验 | quiz | 180 | mixed
减法，十分钟，测一下 | quiz | 600 | subtraction
来个数学quiz 12分钟😎 | quiz | 720 | mixed
乘发测验8分钟 | quiz | 480 | multiplication
能给我出一刻钟的加法题吗？ | quiz | 900 | addition
考我45分钟，什么运算都行 | quiz | 2700 | mixed
口算 90秒 | quiz | 90 | mixed
做个五分钟的乘法测验 | quiz | 300 | multiplication
練習加法五分鐘 | quiz | 300 | addition
停止计时 | stop
好了 结束专注 | stop
孩子醒了，取消专注吧 | stop
把测验停了，专注继续 | stop
结束专注，测验留着 | stop
停 | stop
退出数学测验 | stop
我得走了，请中断专注。 | stop
关掉番茄钟 | stop
停止專注🛑 | stop
不做题了，stop quiz | stop
还剩多久？ | status
专注还剩几分钟 | status
计时器还在跑吗？ | status
看下时间还剩多少 | status
测验还有多长时间 | status
我还有多少时间？ | status
请问本次专注还剩多少分钟？ | status
状态 | status
還剩多久啊 | status
我昨天专注完成了吗？ | help
今天早上专注了两个小时💪 | help
先别开计时 | help
如果我专注25分钟会有用吗？ | help
我弟在专注30分钟 | help
明天九点我再专注一小时 | help
20分钟后提醒我关火 | help
定个早上6点的闹钟 | help
在笔记里加一条：买牛奶 | help
考我10分钟法语动词 | help
除法测验5分钟 | help
测验我答对了18道！ | help
番茄工作法为什么有效 | help
哈哈 计时器能陪我学习吗 | help
讲个笑话 | help
学习25分钟合适吗？ | help
今天不想做测验，谢谢 | help
上大学时我都是专注50分钟一轮 | help
我该专注还是做测验？ | help
我的学生们下午要做乘法测验 | help
测验怎么玩 | help
你好 | help
40分钟后叫醒我 | help
我得了34分，算好吗？ | help
开始专注 | ask
考考我乘法 | ask
我们来专注写作文吧 | ask
20分钟吧 | ask
开个15分钟的 | ask
来个计时 | ask
来一个数学测验 | ask
专注25小时 | range
加法测验2个小时 | range
开30小时专注 黑客松 | range
乘法测验90分钟 | range
专注两天 | range
"""
