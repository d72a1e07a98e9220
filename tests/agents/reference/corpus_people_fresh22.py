# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twenty-second fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh22``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the git history, nor the rows of
any other corpus (test_corpus.py tables, any corpus_people*.py rows) — only the eighth fresh set's module
docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``, ``_check`` in
test_corpus.py; ``_measure``, ``_label`` and the ``_DETERMINER`` regex in test_corpus_people.py, their
bodies only) and the apps' manifests for their bounds (focus up to 24 hours, quiz up to 1 hour; Notes has
no start). It did not search the repository for phrases and did not run the parser nor the measure on
these rows. Each row was labelled with what a careful human assistant would do with the two timed apps
installed (a focus timer and an arithmetic quiz): an unclear request is ``ask`` or ``help``, never a
guess. It is measured once, by someone else, after all rows were written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or a length said alone that could be either app), ``range`` (a
duration past the app's bound: focus over 24 hours, quiz over 1 hour) and ``help`` (anything that must not
act: questions about the apps, jokes, greetings, negations, past tense, hypotheticals, someone else's
doing, plans for later and delayed starts, things it cannot do — reminders, alarms, pausing, Notes,
quizzes on anything but the four arithmetic kinds — and scores reported). An activity is written as the
person would want the timer labelled, cut from the request in their words (in Chinese with its verb, as
said: 写论文); context that only explains the moment ("it's 3am", "on placement") is not the activity.

Written as new voices — a park ranger, an orchestra librarian, a Hong Kong office worker mixing
Cantonese-flavoured Chinese and English, an 80-year-old writing very formally, a nursing student on
placement, a tattoo artist, a parent with a 6-year-old learning to add, a data scientist typing terse
shell-like commands, a person correcting themselves mid-message, a person asking about the apps before
asking for one, a tired night-owl at 3am, a teacher running a quiz for a whole class from one phone —
typing on phones and laptops: typos, slang, numbers as words and digits, emoji, mixed zh/en in both
tables, some traditional characters, context first, durations before or after the verb. The mix, per
language: about a third focus starts (with and without activity), a fifth quizzes (with kinds and without,
durations in various forms), stops (also with both running, stopping one and keeping the other), status,
a fifth that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured once, as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH22_EN = """
ranger station's quiet for once. 45 min focus on the trail condition report pls | start | 2700 | the trail condition report
start a 50 minute timer for bowing the Brahms parts | start | 3000 | bowing the Brahms parts
focus 25 mins | start | 1500 | -
Kindly commence a focus period of one hour. | start | 3600 | -
I should be grateful if you would start a timer of forty minutes for my correspondence. | start | 2400 | my correspondence
on placement break, give me 20 min to revise drug calculations | start | 1200 | revise drug calculations
timer 90m deep work | start | 5400 | deep work
start focus 2h | start | 7200 | -
set a focus for 25 no wait 35 minutes | start | 2100 | -
start 20 min, sorry 25 min, for the dragon stencil | start | 1500 | the dragon stencil
its 3am. ugh. 30 min focus on the essay | start | 1800 | the essay
an hour and a half on the grant proposal please | start | 5400 | the grant proposal
lock in for 45 min on payroll | start | 2700 | payroll
boss wants the deck by 5, help me focus 1 hour on the deck la | start | 3600 | the deck
pls start 半小时 focus for the quarterly report | start | 1800 | the quarterly report
quarter of an hour on emails | start | 900 | emails
Start a 2 hour focus session for inventory of the sheet music library | start | 7200 | inventory of the sheet music library
focus 10 min while i clean the machines | start | 600 | clean the machines
study block 40 min: pharmacology | start | 2400 | pharmacology
35 min focus for invoices pls 🙏 | start | 2100 | invoices
focus for three hours on the thesis chapter | start | 10800 | the thesis chapter
Start focusing. 20 minutes. Reading. | start | 1200 | reading
12 hour focus for the wildfire season plan | start | 43200 | the wildfire season plan
focus for 24 hours straight for the hackathon | start | 86400 | the hackathon
give me 1h30 on the setlist | start | 5400 | the setlist
25min pomodoro for flashcards | start | 1500 | flashcards
Could you please set the focus timer for twenty-five minutes? I am writing to my grandson. | start | 1500 | writing to my grandson
ok so focus 10 min for, uh, tidying the score cabinet | start | 600 | tidying the score cabinet
night shift charting, 1 hr focus | start | 3600 | night shift charting
I need 2 hrs of focus for the SQL migration | start | 7200 | the SQL migration
focus on the bird count tally for 50 minutes | start | 3000 | the bird count tally
start a 30 min, no, 40 min focus | start | 2400 | -
focus 4 hours - inventory of the campground permits | start | 14400 | inventory of the campground permits
Please start a focus of one hour and fifteen minutes for the minutes of the committee meeting. | start | 4500 | the minutes of the committee meeting
start 45 minute focus, activity: line work practice | start | 2700 | line work practice
focus 2.5 hours lit review | start | 9000 | lit review
Let's focus for 1 hour on the care plan for bed 4 | start | 3600 | the care plan for bed 4
ok that answers it. start a 25 minute focus then | start | 1500 | -
quiz me on times tables for 5 minutes | quiz | 300 | multiplication
my son is 6 and learning to add, can you give him a 3 minute addition quiz | quiz | 180 | addition
10 min mixed arithmetic quiz for the class | quiz | 600 | mixed
start a quiz, 2 mins, subtraction | quiz | 120 | subtraction
arithmetic quiz 15m | quiz | 900 | mixed
quiz mult 90s | quiz | 90 | multiplication
Would you be so kind as to set me a multiplication quiz of ten minutes? | quiz | 600 | multiplication
a 1 minute adding quiz for my daughter pls | quiz | 60 | addition
take-away quiz 4 minutes (she's 6) | quiz | 240 | subtraction
half an hour of mental maths quiz | quiz | 1800 | mixed
quiz me for 20 minutes on subtraction | quiz | 1200 | subtraction
3am brain check: 5 min multiplication quiz lol | quiz | 300 | multiplication
start a 12 minute times table quiz, I'll pass the phone round the class | quiz | 720 | multiplication
an hour of mixed sums, quiz mode | quiz | 3600 | mixed
quick arithmetic quiz, 7 min | quiz | 420 | mixed
quiz: addition, 2 minutes 30 seconds | quiz | 150 | addition
gimme a maths quiz 10 mins, multiplying only | quiz | 600 | multiplication
Start a subtraction practice quiz lasting a quarter of an hour. | quiz | 900 | subtraction
nursing school makes us do mental math lol, 8 min quiz pls | quiz | 480 | mixed
quiz 5 min 加法 please | quiz | 300 | addition
a forty-five minute arithmetic quiz | quiz | 2700 | mixed
quiz me — times tables — 90 seconds | quiz | 90 | multiplication
Let's practise multiplication for 6 minutes in the quiz | quiz | 360 | multiplication
stop the timer | stop
cancel focus | stop
kill it | stop
end the quiz, keep the focus going | stop
stop the focus but leave the quiz running | stop
ok done early, stop the focus session | stop
enough, stop the quiz 😩 | stop
abort | stop
emergency on the ward, stop everything | stop
停 the timer pls | stop
how long left? | status
is the timer still running? | status
what's running right now | status
time left on the quiz? | status
status | status
How much time remains on my focus period, please? | status
still going? | status
how many mins till my focus ends | status
is anything running rn | status
how far into the focus am i | status
what can the quiz app do? | help
does the focus timer keep running if I lock my phone? | help
hi there! | help
I did 2 hours of focus yesterday | help
remind me to move the truck at 4 | help
set an alarm for 6am | help
pause the timer | help
quiz me on capital cities for 10 min | help
can you do a division quiz for 5 minutes | help
don't start the timer yet | help
if I started a 2 hour focus would it stop when i leave? | help
my colleague is doing a 30 min focus | help
tomorrow morning I'll do a 45 minute focus | help
got 18 out of 20 on the multiplication quiz! | help
write "bring permits" in my notes | help
why did the focus stop early? | help
lol my tattoo gun buzzes louder than any pomodoro timer | help
how do I change the quiz length? | help
i'm not doing a quiz today | help
I was going to focus for an hour but fell asleep lol | help
can it quiz kids on spelling? 10 minutes? | help
what's the longest focus I can set? | help
start a focus in 20 minutes | help
good morning, ranger dave checking in | help
start a focus session | ask
let's do 30 minutes | ask
quiz me | ask
20 minutes please | ask
I need to focus on the stencil | ask
times tables quiz for my kid | ask
an hour, go | ask
focus for 30 hours | range
2 hour multiplication quiz | range
quiz me for 90 minutes on addition | range
focus 2 days on the inventory | range
focus for 25 hours please | range
quiz 61 minutes | range
"""

HELD_OUT_FRESH22_ZH = """
专注25分钟 | start | 1500 | -
帮我开个专注，四十分钟，写巡护报告 | start | 2400 | 写巡护报告
我要专心一个小时整理乐谱 | start | 3600 | 整理乐谱
唔該幫我開一個 focus，半個鐘，做 report | start | 1800 | 做 report
劳驾，请为我开启一小时的专注计时，我要誊写书信。 | start | 3600 | 誊写书信
实习间隙，专注20分钟背药理 | start | 1200 | 背药理
focus 90分钟 | start | 5400 | -
专注 1h 跑模型 | start | 3600 | 跑模型
开个二十五分钟的番茄钟 | start | 1500 | -
凌晨三点了，专注半小时赶稿吧 | start | 1800 | 赶稿
专注一个半小时 | start | 5400 | -
专注一刻钟，回邮件 | start | 900 | 回邮件
设个专注，30分钟，不对，45分钟 | start | 2700 | -
帮我计时专注两个钟，画图稿 | start | 7200 | 画图稿
专注三小时写标书 | start | 10800 | 写标书
開始專注四十五分鐘 | start | 2700 | -
给我专注五十分钟，盘点山径指示牌 | start | 3000 | 盘点山径指示牌
我想专注10分钟整理针具 | start | 600 | 整理针具
专注学习40分钟：病理学 | start | 2400 | 病理学
开始专注，时长2小时，内容：写周报 | start | 7200 | 写周报
請幫我開一個專注計時，一小時十五分鐘，整理合唱團分譜 | start | 4500 | 整理合唱團分譜
挑战一下，专注24小时做黑客松项目 | start | 86400 | 做黑客松项目
开专注 25min 复习护理学 🙏 | start | 1500 | 复习护理学
专注两个半小时写论文 | start | 9000 | 写论文
我要专注 45 分钟练线条 | start | 2700 | 练线条
老师，不是，小助手，帮我专注二十分钟备课 | start | 1200 | 备课
focus 一個鐘 for the budget | start | 3600 | the budget
下班前专注40分钟清一下收件箱 | start | 2400 | 清一下收件箱
专注半个钟头 | start | 1800 | -
专注计时：35分钟 | start | 2100 | -
开个1小时30分的专注，写代码 | start | 5400 | 写代码
专注15分钟，数据清洗 | start | 900 | 数据清洗
先专注六十分钟核对病历 | start | 3600 | 核对病历
请开启专注模式五十五分钟 | start | 3300 | -
我要专注四个小时录入野外调查数据 | start | 14400 | 录入野外调查数据
专心读书一小时 | start | 3600 | 读书
专注 12 小时 | start | 43200 | -
好，明白了，那就开个25分钟专注 | start | 1500 | -
出一套5分钟的乘法题考考我 | quiz | 300 | multiplication
我家孩子6岁在学加法，给他来个3分钟的加法小测 | quiz | 180 | addition
全班一起做10分钟口算测验 | quiz | 600 | mixed
减法练习测验，两分钟 | quiz | 120 | subtraction
quiz 15min 混合 | quiz | 900 | mixed
乘法 quiz 90s | quiz | 90 | multiplication
烦请出一份十分钟的乘法测验 | quiz | 600 | multiplication
来个1分钟的加法小测给女儿 | quiz | 60 | addition
九九乘法表测四分钟 | quiz | 240 | multiplication
半小时心算测验 | quiz | 1800 | mixed
考我减法，二十分钟 | quiz | 1200 | subtraction
凌晨三点脑子还清醒吗，来个5分钟乘法测试 | quiz | 300 | multiplication
开个12分钟的乘法口诀测验，我拿手机给全班轮流答 | quiz | 720 | multiplication
一小时混合运算测验 | quiz | 3600 | mixed
算术测验7分钟 | quiz | 420 | mixed
加法小测，两分半钟 | quiz | 150 | addition
做個十分鐘嘅乘數 quiz | quiz | 600 | multiplication
请开始一个为时一刻钟的减法练习测验 | quiz | 900 | subtraction
护理考试要算剂量，先来8分钟口算练习 | quiz | 480 | mixed
addition quiz 五分钟 | quiz | 300 | addition
四十五分钟算术测验 | quiz | 2700 | mixed
乘法，一分半，考我 | quiz | 90 | multiplication
用测验练6分钟乘法 | quiz | 360 | multiplication
停止计时 | stop
结束专注 | stop
别计了，停 | stop
结束测验，专注继续 | stop
把专注停了，测验留着 | stop
提前做完了，停掉专注吧 | stop
請終止目前的計時。 | stop
不做了，停测验 😩 | stop
病房有急事，全部停掉 | stop
stop 专注 | stop
还剩多久？ | status
计时器还在跑吗 | status
现在在运行什么 | status
测验还剩几分钟？ | status
状态 | status
请问我的专注还余多少时间？ | status
专注还有几分钟结束 | status
而家有冇嘢喺度行緊？ | status
時間仲剩幾多？ | status
专注进行到哪了 | status
测验应用能做什么？ | help
锁屏以后专注计时还会继续吗？ | help
你好呀 | help
我昨天专注了两个小时 | help
四点提醒我挪车 | help
定个早上六点的闹钟 | help
暂停一下计时 | help
考我十分钟的各国首都 | help
能出五分钟的除法题吗 | help
先别开始计时 | help
如果我开两小时专注，离开页面会停吗？ | help
我同事在专注三十分钟 | help
明天早上我要专注45分钟 | help
乘法测验我答对了18道，满分20！ | help
在笔记里记一下：带许可证 | help
为什么专注提前结束了？ | help
哈哈我的纹身机比番茄钟还吵 | help
怎么改测验的时长？ | help
今天不做测验 | help
本来想专注一小时，结果睡着了 | help
能不能考小朋友拼音，十分钟？ | help
最长能专注多久？ | help
二十分钟后开始专注 | help
早晨！巡山前报个到 | help
开始专注 | ask
来个二十分钟吧 | ask
考考我 | ask
半小时 | ask
我想专心画稿 | ask
给孩子出套乘法题 | ask
开个计时 | ask
专注30小时 | range
两小时乘法测验 | range
加法测验九十分钟 | range
专注两天做盘点 | range
专注25个小时 | range
测验61分钟 | range
"""
