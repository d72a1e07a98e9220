# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twelfth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh12``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the git history nor the rows of
any other corpus (test_corpus.py tables, corpus_people*.py rows). It read only the eighth fresh set's
module docstring (for the format and the rules; and the line numbers of its two table assignments, for the
layout), the measuring helpers (``_rows``, ``_kind``, ``_check`` in test_corpus.py; ``_measure``, ``_label``
and the ``_DETERMINER`` regex in test_corpus_people.py, their bodies only — the grep also printed the first
lines of the test after ``_measure``, which hold no rows) and the apps' manifests for their bounds (focus up
to 24 hours, quiz up to 1 hour; Notes has no start). It did not search the repository for phrases and did
not run the parser or the measure on these rows. Each row was labelled with what a careful human assistant
would do with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear request is
``ask`` or ``help``, never a guess. It is measured once, by someone else, after all rows were written, and
no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone, with no app
nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act: questions
about the apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for later, things
it cannot do — reminders, alarms, pausing, Notes, quizzes on anything but the four arithmetic kinds —
scores reported and greetings). An activity is written as the person would want the timer labelled, cut
from the request in their words: the thing worked on after "on"/"for"/a comma, without a generic "work
on"/"focus on", but keeping a content verb (写病历, sorting receipts); a leading determiner is left out.

Written as new voices — a museum guide, a dentist between patients, a tax accountant in April, a violin
teacher, a delivery rider waiting for orders, high-schoolers before the gaokao or the SAT, an elderly person
new to phones, a game developer, a yoga instructor, parents doing homework with a child, people writing
through a translation app (stiff phrasing), someone who types one word at a time — on phones and laptops:
typos, slang, numbers as words and digits, emoji, mixed zh/en in both tables, some traditional characters,
context first, wishes and needs ("I need…", "我需要…"), durations before or after the verb. The mix, per
language: about a third focus starts (with and without an activity), a fifth quizzes (with and without a
kind, durations in various forms), stops (also with both running, stopping one and keeping the other),
status, a fifth that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH12_EN = """
Gap between patients — 25 min focus please | start | 1500 | -
15 min focus, charting | start | 900 | charting
I need 40 minutes to finish the Hendersons' return | start | 2400 | Hendersons' return
April is brutal. Three hours on tax returns, go | start | 10800 | tax returns
focus for an hour and a half on the Q1 estimates | start | 5400 | Q1 estimates
start. focus. twenty. minutes. | start | 1200 | -
45 min on the Bach partita please | start | 2700 | Bach partita
Please to begin a concentration time of thirty minutes. | start | 1800 | -
I would like to make focus during 1 hour for my thesis writing | start | 3600 | thesis writing
crunch mode: 2h focus on the boss fight AI | start | 7200 | boss fight AI
90 min deep work, shader bugs | start | 5400 | shader bugs
Start a 10 minute focus for meditation before class | start | 600 | meditation
Could you start the focus timer for thirty minutes. Thank you dear. | start | 1800 | -
🍅 25 min pls | start | 1500 | -
foucs 50 mins | start | 3000 | -
strat a focus for 35 minutes | start | 2100 | -
need 1h15 for SAT reading practice | start | 4500 | SAT reading practice
45 minutes of SAT prep, no distractions | start | 2700 | SAT prep
ok let's gooo 🔥 1 hr focus on chem | start | 3600 | chem
focus 24 hours, hackathon mode | start | 86400 | hackathon
waiting for orders, so 20 minutes of focus on driving theory | start | 1200 | driving theory
Next tour is in an hour — focus 40 min on the Dutch gallery script | start | 2400 | Dutch gallery script
three quarters of an hour for lesson planning | start | 2700 | lesson planning
quarter of an hour, emails | start | 900 | emails
half an hour for grading please | start | 1800 | grading
I need to concentrate for 2 hours on the audit | start | 7200 | audit
set focus mode 55 minutes | start | 3300 | -
Focus timer: 1 hour 20 minutes. Activity: writing the grant report | start | 4800 | writing the grant report
can u start a 25min focus on maths homework | start | 1500 | maths homework
Let's focus 30 minutes on the audio guide script | start | 1800 | audio guide script
Start focusing now for forty-five minutes | start | 2700 | -
2 hours focus pls, level design | start | 7200 | level design
before my next patient: 12 min focus, x-ray notes | start | 720 | x-ray notes
Begin focus session 100 minutes | start | 6000 | -
focus 1.5 hrs | start | 5400 | -
I need a 20-minute focus, sorting receipts | start | 1200 | sorting receipts
start a 4 hour focus, reading | start | 14400 | reading
studio's quiet, 30 min focus on my class playlist | start | 1800 | class playlist
Start the timer for 5 minutes, breathing exercise | start | 300 | breathing exercise
start focus 25 min, 谢谢 | start | 1500 | -
focus 半小时 on slides | start | 1800 | slides
quiz me on times tables for 10 minutes | quiz | 600 | multiplication
5 min quiz while I wait for orders | quiz | 300 | mixed
can my daughter have a 15 minute addition quiz | quiz | 900 | addition
subtraction practice, 8 mins | quiz | 480 | subtraction
mental math drill 20 minutes | quiz | 1200 | mixed
give me a ten-minute multiplication quiz | quiz | 600 | multiplication
Quiz. Adding. Five minutes. | quiz | 300 | addition
I would like please an arithmetic test of 30 minutes | quiz | 1800 | mixed
7 times table quiz, 3 min | quiz | 180 | multiplication
one hour arithmetic quiz | quiz | 3600 | mixed
quick quiz 2 min | quiz | 120 | mixed
minus quiz for 12 minutes please | quiz | 720 | subtraction
start a quiz: multiplication, a quarter of an hour | quiz | 900 | multiplication
Homework time — 20 min take-away quiz for my son | quiz | 1200 | subtraction
half hour of mixed arithmetic | quiz | 1800 | mixed
test me on addition 4 minutes | quiz | 240 | addition
multiplicaton quiz 6 min | quiz | 360 | multiplication
90 seconds of times tables, go! | quiz | 90 | multiplication
quiz 45 mins 🧮 | quiz | 2700 | mixed
need a 10 min math quiz to warm up before the SAT | quiz | 600 | mixed
start arithmetic quiz twenty five minutes subtraction | quiz | 1500 | subtraction
do a 15-minute quiz on multiplying | quiz | 900 | multiplication
quiz 10分钟 multiplication | quiz | 600 | multiplication
stop the timer | stop
end focus, patient's here | stop
cancel the quiz | stop
stop the quiz but keep my focus running | stop
kill the focus timer, leave the quiz going | stop
stop everything | stop
ok I'm done, turn off the focus | stop
stop both please | stop
enough quiz for today, stop it | stop
Please to stop the concentration time. | stop
end the quiz now 🛑 | stop
how long left? | status
is the timer still running | status
what's running right now? | status
how much time on the quiz | status
time check pls | status
am I still in focus? | status
how many minutes until my focus ends | status
is the quiz over yet | status
are both still going? | status
remaining time, please | status
when does my focus end? | status
start a focus session | ask
let's do 30 minutes | ask
I need to concentrate | ask
quiz me on times tables | ask
20 min? | ask
give me a few minutes of focus | ask
focus for 30 hours straight | range
2 hour multiplication quiz | range
start a focus for 2 days on my dissertation | range
quiz me for 90 minutes | range
focus 1500 minutes | range
an arithmetic quiz of 61 minutes | range
how does the focus timer work? | help
what kinds of quizzes can you do? | help
don't start anything yet | help
I did 2 hours of focus yesterday | help
scored 27/30 on the times tables 🎉 | help
good morning! | help
remind me at 4 to call Mrs Lee back | help
set an alarm for 6:30 | help
pause the timer, phone call | help
add "buy rosin" to my notes | help
quiz me on French verbs for 10 minutes | help
division quiz 10 min | help
what if I set a focus for 25 hours? | help
my colleague started a 50 minute focus | help
I'll do a 40 min focus after lunch | help
would 15 minutes be too long for a 7 year old's quiz? | help
what's 7 times 8? | help
lol no | help
thanks, that helped | help
can the timer count up instead of down? | help
no quiz today, thanks | help
start a focus until the heat death of the universe 😂 | help
my kid did the addition quiz yesterday and loved it | help
is it possible to pause the quiz? | help
show me my notes | help
"""

HELD_OUT_FRESH12_ZH = """
下一个病人来之前，专注二十分钟写病历 | start | 1200 | 写病历
帮我开始专注二十五分钟 | start | 1500 | -
四月报税季，给我三个小时专注做账 | start | 10800 | 做账
专注一个半小时，整理客户发票 | start | 5400 | 整理客户发票
开始 专注 三十 分钟 | start | 1800 | -
练琴四十五分钟，帮我计时 | start | 2700 | 练琴
請開始專注四十分鐘 | start | 2400 | -
請幫我專注一小時寫論文 | start | 3600 | 寫論文
请开始一个专注时段，为期四十分钟 | start | 2400 | -
我希望进行集中注意力的时间为一小时用于翻译文件 | start | 3600 | 翻译文件
高考冲刺，刷数学卷子两个小时 | start | 7200 | 刷数学卷子
我需要专注半小时背英语单词 | start | 1800 | 背英语单词
孩子，帮我开个三十分钟的专注，谢谢你 | start | 1800 | -
专注 一刻钟 | start | 900 | -
三刻钟专注，写关卡设计文档 | start | 2700 | 写关卡设计文档
改bug 90分钟，开专注 | start | 5400 | 改bug
开个focus，45分钟 | start | 2700 | -
番茄钟25分钟🍅 | start | 1500 | -
上课前冥想十分钟，帮我开个专注 | start | 600 | 冥想
专注1.5小时 | start | 5400 | -
专住半个钟头 | start | 1800 | -
等单的时候专注二十分钟学驾照理论 | start | 1200 | 学驾照理论
讲解词还没背熟，专注四十分钟背讲解词 | start | 2400 | 背讲解词
我要专心备课一个小时 | start | 3600 | 备课
一小时二十分钟，专注写游戏脚本 | start | 4800 | 写游戏脚本
给我开两个半小时的专注，复习物理 | start | 9000 | 复习物理
专注24小时做黑客松项目 | start | 86400 | 做黑客松项目
帮我定个专注时间 50分钟 | start | 3000 | -
開始專注二十分鐘，整理瑜伽課程 | start | 1200 | 整理瑜伽課程
我需要一个小时安静地看书 | start | 3600 | 看书
专注五分钟，呼吸练习 | start | 300 | 呼吸练习
陪孩子写作业，专注四十分钟 | start | 2400 | 陪孩子写作业
开始专注 100分钟 | start | 6000 | -
专注两小时 写代码 | start | 7200 | 写代码
来个四十五分钟的专注，做PPT | start | 2700 | 做PPT
幫我計時專注三十分鐘，練小提琴 | start | 1800 | 練小提琴
我想专注一个钟 | start | 3600 | -
現在開始專注 十五分鐘 | start | 900 | -
开始专注半小时 做slides | start | 1800 | 做slides
来个十分钟的乘法测验 | quiz | 600 | multiplication
等单中，来个五分钟口算 | quiz | 300 | mixed
给孩子出个加法小测，十五分钟 | quiz | 900 | addition
减法练习八分钟 | quiz | 480 | subtraction
九九乘法表测一下，三分钟 | quiz | 180 | multiplication
口算测验 二十分钟 | quiz | 1200 | mixed
來一個十分鐘的算術測驗 | quiz | 600 | mixed
出半小时的算术题给我做 | quiz | 1800 | mixed
测验 加法 五分钟 | quiz | 300 | addition
一小时的口算测验 | quiz | 3600 | mixed
乘法小测验，一刻钟 | quiz | 900 | multiplication
考考我减法，十二分钟 | quiz | 720 | subtraction
我需要一个乘法测试四十分钟 | quiz | 2400 | multiplication
来个quiz，加法，6分钟 | quiz | 360 | addition
两分钟快速口算 | quiz | 120 | mixed
陪女儿做减法测验，二十分钟 | quiz | 1200 | subtraction
開始乘法測驗 二十五分鐘 | quiz | 1500 | multiplication
出点算术题考我，十分钟 | quiz | 600 | mixed
九十秒乘法口算 | quiz | 90 | multiplication
来一套半小时的数学测验 | quiz | 1800 | mixed
开个10 min的加法quiz | quiz | 600 | addition
测验四十五分钟 | quiz | 2700 | mixed
单词背完了，来个五分钟乘法测验放松一下 | quiz | 300 | multiplication
停止专注 | stop
病人来了，结束计时 | stop
取消测验 | stop
把测验停了，专注继续 | stop
关掉专注，测验让它继续 | stop
全部停掉 | stop
不做了，关掉测验 | stop
两个都停了吧 | stop
停止計時 | stop
结束专注吧，我累了 | stop
请停止集中时段 | stop
还剩多久？ | status
计时器还在走吗 | status
现在在运行什么？ | status
测验还有几分钟 | status
專注還剩多少時間 | status
我还在专注中吗 | status
离专注结束还有多久 | status
测验结束了没 | status
两个都还在跑吗？ | status
剩余时间？ | status
专注几点结束？ | status
开始专注 | ask
来十分钟 | ask
我需要集中一下注意力 | ask
考考我乘法 | ask
二十分钟？ | ask
专注一会儿 | ask
专注三十个小时 | range
两小时的乘法测验 | range
帮我专注两天写论文 | range
口算测验九十分钟 | range
專注二十五小時 | range
专注计时器怎么用？ | help
测验有哪些类型？ | help
先别开始 | help
我昨天专注了两个小时 | help
乘法测验考了28分，满分30 🎉 | help
早上好！ | help
下午四点提醒我给病人回电话 | help
定个六点半的闹钟 | help
暂停一下计时，接个电话 | help
把“买松香”记到笔记里 | help
考我十分钟英语单词 | help
除法测验十分钟 | help
如果我专注25个小时会怎样？ | help
我同事开了一个五十分钟的专注 | help
吃完午饭我再专注四十分钟 | help
七岁小孩做十五分钟测验会不会太长？ | help
七乘八等于多少？ | help
哈哈算了 | help
谢谢，很有用 | help
计时器能正计时吗？ | help
今天不做测验了，谢谢 | help
我儿子昨天做了加法测验，很喜欢 | help
看看我的笔记 | help
能不能暂停测验？ | help
"""
